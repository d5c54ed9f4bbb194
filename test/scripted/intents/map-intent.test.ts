import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {toolPlanFor} from '../../../scripted/intents/index.js';
import {shellLine, statusLine} from '../../../scripted/intents/shell-lines.js';
import type {ChatRequest} from '../../../scripted/chat-request.js';
import {toolDefinitions} from '../../../engine/index.js';
import {tempDir} from '../../temp-dir.js';

type Props = Record<string, {type: string; description?: string; items?: object}>;
const tool = (name: string, properties: Props, required: string[] = Object.keys(properties)) => ({type: 'function' as const, function: {name, parameters: {type: 'object', properties, required}}});
const str = (description = '') => ({type: 'string', description});
const request = (tools: ReturnType<typeof tool>[], system = 'You are an agent.'): ChatRequest => ({model: 'm', messages: [{role: 'system', content: system}, {role: 'user', content: 'task'}], tools});

const qwen = [
	tool('read_file', {file_path: str('The absolute path to the file to read. Relative paths are not supported.')}),
	tool('write_file', {file_path: str('The absolute path to the file to write to. Relative paths are not supported.'), content: str()}),
	tool('list_directory', {path: str('The absolute path to the directory to list (must be absolute, not relative)')}),
	tool('run_shell_command', {command: str(), is_background: {type: 'boolean'}, description: str()}, ['command', 'is_background']),
];

t.test('a tool that asks for absolute paths gets the root the request names, and the shell does the work when it names none', async t => {
	const withRoot = toolPlanFor(request(qwen, 'Working directory: /w/ws'));
	t.same(withRoot.call({tool: 'read_file', args: {path: 'src/a.js'}}, 0), {name: 'read_file', args: {file_path: '/w/ws/src/a.js'}, observe: withRoot.call({tool: 'read_file', args: {path: 'x'}}, 0)!.observe, exact: false});
	t.same(withRoot.call({tool: 'list_files', args: {path: '.'}}, 0)!.args, {path: '/w/ws'});
	const noRoot = toolPlanFor(request(qwen));
	const read = noRoot.call({tool: 'read_file', args: {path: 'src/a.js'}}, 0)!;
	t.same([read.name, read.args], ['run_shell_command', {command: `cat -- 'src/a.js'\n${statusLine}`, is_background: false}], 'required arguments filled: is_background false');
	t.equal(noRoot.call({tool: 'write_file', args: {path: 'a b/c.txt', content: 'x\n'}}, 0)!.name, 'run_shell_command');
	const started = noRoot.call({tool: 'run_command', args: {command: 'node tools/x.js', background: true}}, 1)!;
	t.same(started.args, {command: 'echo "hlab-started: $$"; exec sh -c \'node tools/x.js\'', is_background: true}, 'a shell that runs jobs in the background itself is asked to: the agent keeps the job');
});

t.test('relative paths where the schema allows them; run and start always through the shell; required arguments filled from the schema', async t => {
	const pi = toolPlanFor(request([tool('read', {path: str('Path to the file to read (relative or absolute)')}), tool('bash', {command: str()}), tool('write', {path: str('Path to the file to write (relative or absolute)'), content: str()})], 'Current working directory: /w'));
	t.same(pi.call({tool: 'read_file', args: {path: 'a.txt'}}, 0)!.args, {path: 'a.txt'}, '"relative or absolute" is not a demand for absolute paths');
	t.same(pi.call({tool: 'list_files', args: {path: 'src'}}, 0)!.args, {command: `ls -A 'src'\n${statusLine}`}, 'no list tool: ls through bash');
	t.match(pi.call({tool: 'run_command', args: {command: 'node tools/x.js', background: true}}, 0)!.args, {command: /^setsid nohup sh -c 'node tools\/x.js' >\/dev\/null 2>&1 < \/dev\/null &\necho "hlab-started: \$!"$/});
	const opencode = toolPlanFor(request([tool('bash', {command: str(), timeout: {type: 'number'}, description: str()}, ['command', 'description'])]));
	t.same(opencode.call({tool: 'run_command', args: {command: 'npm test'}}, 0)!.args, {command: `: step 1\nnpm test\n${statusLine}`, description: 'Runs npm test'});
	const codex = toolPlanFor(request([tool('shell', {command: {type: 'array', items: {type: 'string'}}, timeout_ms: {type: 'number'}}, ['command', 'timeout_ms'])]));
	t.same(codex.call({tool: 'run_command', args: {command: 'true'}}, 0)!.args, {command: ['bash', '-c', `: step 1\ntrue\n${statusLine}`], timeout_ms: 120_000}, 'an argv array; a required timeout gets a generous one');
	t.same([2, 3].map(step => opencode.call({tool: 'run_command', args: {command: 'poll'}}, step)!.args.command), [`: step 3\npoll\n${statusLine}`, `: step 4\npoll\n${statusLine}`], 'a command run again is numbered by its step: no two polls are identical calls');
	t.equal(toolPlanFor(request([tool('edit', {path: str(), old: str(), new: str()})])).call({tool: 'write_file', args: {path: 'a', content: 'b'}}, 0), null, 'no tool can write: none is invented');
});

t.test('the reference finishes with a finishing tool when one is offered, else with a text', async t => {
	t.same(toolPlanFor(request([tool('bash', {command: str()}), tool('attempt_completion', {result: str()})])).finish('ok'), {kind: 'call', name: 'attempt_completion', args: {result: 'ok'}});
	t.same(toolPlanFor(request([tool('bash', {command: str()})])).finish('ok'), {kind: 'text'});
	const native = toolPlanFor({model: 'm', messages: [{role: 'user', content: 'x'}], tools: toolDefinitions() as unknown as ChatRequest['tools']});
	t.same(native.finish('ok'), {kind: 'call', name: 'done', args: {summary: 'ok'}}, 'the built-in tools: done, as always');
	const step = {tool: 'run_command', args: {command: 'x', background: true}};
	t.same(native.call(step, 0)!.args, step.args, 'the built-in tools: each step is its own call, unchanged');
	t.equal(native.call(step, 0)!.observe('raw'), 'raw', '...and its result is read as it comes');
	const bare = toolPlanFor(request(['list_files', 'run_command'].map(name => tool(name, {}))));
	t.same(bare.call({tool: 'list_files', args: {path: '.'}}, 0), {name: 'list_files', args: {path: '.'}, observe: bare.call({tool: 'list_files', args: {path: '.'}}, 0)!.observe, exact: true}, 'our tools by name with no arguments declared are ours too');
	t.equal(toolPlanFor(request([tool('read_file', {file_path: str()})])).call({tool: 'read_file', args: {path: 'a'}}, 0)!.args.file_path, 'a', 'another agent\'s read_file (its own argument names) is mapped, not taken for ours');
});

t.test('a write through the shell leaves the content byte for byte', async t => {
	const dir = await tempDir(t);
	const contents = ['plain\n', 'no final newline', 'quotes \' " and $HOME `id` \\n\n', 'HLAB_EOF\nthe delimiter as a line\n', '', '\n\n'];
	for (const [index, content] of contents.entries()) {
		const path = `deep/er/file-${index}.txt`;
		const run = spawnSync('bash', ['-c', shellLine({kind: 'write', path, content}, 0)], {cwd: dir, encoding: 'utf8'});
		t.match(run.stdout, /hlab-exit: 0\n$/);
		t.equal(readFileSync(join(dir, path), 'utf8'), content, JSON.stringify(content));
	}
});

t.test('a command\'s status survives an agent that cuts the end of a long output: the line ends with the command\'s own status', async t => {
	const dir = await tempDir(t);
	const run = spawnSync('bash', ['-c', shellLine({kind: 'run', command: 'sh -c "echo failing; exit 3"'}, 0)], {cwd: dir, encoding: 'utf8'});
	t.equal(run.status, 3, 'the status the agent reports is the command\'s, not the marker\'s echo');
	t.match(run.stdout, /failing\nhlab-exit: 3\n$/);
});
