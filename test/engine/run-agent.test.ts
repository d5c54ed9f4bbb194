import {existsSync} from 'node:fs';
import {mkdir, readFile, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import type {ReferenceScript} from '../../tasks/index.js';
import {getTask} from '../../tasks/index.js';
import {Deadline} from '../../engine/deadline.js';
import {executeTool} from '../../engine/tools/execute-tool.js';
import {BackgroundJobs} from '../../engine/tools/run-command.js';
import {runScripted, scriptedServer, tempDir} from './engine-run.js';

checkNoLeaks(t);

/** A scripted task for this file: the server plays `reference` when it sees `prompt`. */
function scripted(id: string, reference: ReferenceScript): {id: string; prompt: string; reference: ReferenceScript} {
	return {id, prompt: `test task ${id}`, reference};
}

const observations: Record<string, string[]> = {};
/** Keeps what the reference saw, so a test can read the tool results the loop produced. */
function recording(id: string, calls: {tool: string; args: Record<string, unknown>}[]): ReferenceScript {
	return function* () {
		observations[id] = [];
		for (const call of calls) observations[id]!.push(yield call);
		return `${id} finished`;
	};
}

const migration = getTask('json_config_migration')!;
const tasks = [
	migration,
	scripted('sleeper', recording('sleeper', [{tool: 'run_command', args: {command: 'sleep 30'}}])),
	scripted('background', recording('background', [{tool: 'run_command', args: {command: 'sleep 30', background: true}}])),
	scripted('escapes', recording('escapes', [
		{tool: 'read_file', args: {path: '../outside/secret.txt'}},
		{tool: 'read_file', args: {path: 'inner/../../outside/secret.txt'}},
		{tool: 'read_file', args: {path: '/etc/hostname'}},
		{tool: 'write_file', args: {path: 'link/planted.txt', content: 'x'}},
		{tool: 'read_file', args: {path: 'link/secret.txt'}},
		{tool: 'write_file', args: {path: 'dangling', content: 'x'}},
		{tool: 'list_files', args: {path: 'link'}},
		{tool: 'write_file', args: {path: 'inner/../kept.txt', content: 'inside'}},
		{tool: 'read_file', args: {path: 'kept.txt'}},
	])),
	scripted('commands', recording('commands', [
		{tool: 'run_command', args: {command: 'echo out; echo err >&2; exit 3'}},
		{tool: 'run_command', args: {command: 'head -c 200000 /dev/zero | tr "\\0" a'}},
		{tool: 'run_command', args: {command: 'sleep 5', timeout_seconds: 0.3}},
		{tool: 'run_command', args: {command: 'echo "$HLAB_SECRET_FOR_TOOLS"'}},
		{tool: 'list_files', args: {}},
		{tool: 'read_file', args: {file: 'x'}},
	])),
];
const server = await scriptedServer(t, tasks.map(task => ({id: task.id, prompt: task.prompt, reference: task.reference})));

t.test('runs a task to done and journals every request, response, tool call and tool result', async t => {
	const workspace = join(await tempDir(t), 'ws');
	await migration.setup(workspace);
	const run = await runScripted(t, server, migration, {workspace});
	t.equal(run.outcome.status, 'done');
	t.equal(run.outcome.reason, null);
	t.match(run.outcome.final_text, /service\.v2\.json/);
	t.ok((await migration.grade(workspace, {deadlineMs: 30_000})).passed, 'the workspace passes the grader');

	const count = (type: string): number => run.journal.filter(record => record.type === type).length;
	t.equal(count('request'), run.outcome.steps, 'one request per step');
	t.equal(count('response'), run.outcome.usage.turns, 'one answered response per turn');
	t.equal(run.outcome.usage.turns, run.outcome.steps);
	t.equal(count('tool_call'), run.outcome.steps, 'one tool call per step, the last one done');
	t.equal(count('tool_result'), run.outcome.steps - 1, 'every tool call but done has a result');
	t.same(run.journal.at(-1)!.outcome, run.outcome, 'the journal ends with the outcome');
	t.type(run.journal.at(-1)!.wall_ms, 'number');
	const request = run.journal.find(record => record.type === 'request')!;
	t.same(request.body.tools.map((tool: {function: {name: string}}) => tool.function.name), ['read_file', 'write_file', 'list_files', 'run_command', 'done']);

	t.same(run.messages.slice(0, 2).map(message => message.role), ['system', 'user']);
	t.equal(run.messages[1]!.content, migration.prompt);
	t.equal(run.messages.filter(message => message.role === 'assistant').length, run.outcome.usage.turns);
	t.equal(run.messages.at(-1)!.tool_calls[0].name, 'done');

	const {usage} = run.outcome;
	t.ok(usage.input_tokens! > 0 && usage.output_tokens! > 0, 'tokens are counted');
	t.equal(usage.total_tokens, usage.input_tokens! + usage.output_tokens!, 'total is input (cache included) plus output');
	t.ok(usage.cache_read_tokens! > 0, 'later requests read the cache');
	t.equal(usage.cache_read_tokens! + usage.cache_write_tokens!, usage.input_tokens, 'every input token was read from or written to the simulated cache');
	t.equal(usage.cost_usd, null, 'money cost is unknown when the provider does not report it');
});

t.test('the step budget ends the loop as unfinished', async t => {
	const workspace = join(await tempDir(t), 'ws');
	await migration.setup(workspace);
	const run = await runScripted(t, server, migration, {workspace, maxSteps: 2});
	t.same([run.outcome.status, run.outcome.reason, run.outcome.steps, run.outcome.usage.turns], ['unfinished', 'unfinished', 2, 2]);
	t.notOk(existsSync(join(workspace, 'config/service.v2.json')), 'the work was not done');
});

t.test('the deadline reaches a running command, and its process group is reported and ended', async t => {
	const groups: number[] = [];
	const started = performance.now();
	const run = await runScripted(t, server, tasks[1]!, {deadlineMs: 1500, onProcessGroup: pid => groups.push(pid)});
	t.same([run.outcome.status, run.outcome.reason], ['failed', 'timeout']);
	t.ok(performance.now() - started < 10_000, 'the 30 s command did not hold the loop');
	t.equal(groups.length, 1, 'the command\'s process group was reported');
	t.notOk(existsSync(`/proc/${groups[0]}`), 'and it is gone');
	t.equal(run.outcome.usage.turns, 1);
});

t.test('cancellation ends the loop as aborted', async t => {
	const controller = new AbortController();
	setTimeout(() => controller.abort(), 800);
	const run = await runScripted(t, server, tasks[1]!, {signal: controller.signal});
	t.same([run.outcome.status, run.outcome.reason], ['failed', 'aborted']);
});

t.test('a background job runs in its own process group and is ended with the loop', async t => {
	const groups: number[] = [];
	const run = await runScripted(t, server, tasks[2]!, {onProcessGroup: pid => groups.push(pid)});
	t.equal(run.outcome.status, 'done');
	t.match(observations.background![0], /^started background job 1 \(pid \d+\)/);
	t.equal(groups.length, 1);
	t.notOk(existsSync(`/proc/${groups[0]}`), 'the job was ended');
	const job = run.journal.find(record => record.type === 'background_job')!;
	t.equal(job.process.failure, 'aborted');
	t.same(job.process.survivors, []);
});

t.test('paths that leave the workspace are refused as tool errors, and the loop goes on', async t => {
	const dir = await tempDir(t);
	const workspace = join(dir, 'ws');
	await mkdir(join(workspace, 'inner'), {recursive: true});
	await mkdir(join(dir, 'outside'));
	await writeFile(join(dir, 'outside/secret.txt'), 'secret');
	await symlink(join(dir, 'outside'), join(workspace, 'link'));
	await symlink(join(dir, 'outside/nothing-here'), join(workspace, 'dangling'));
	const run = await runScripted(t, server, tasks[3]!, {workspace});
	t.equal(run.outcome.status, 'done');
	const seen = observations.escapes!;
	t.match(seen[0], /^error: .*outside the workspace/, 'a .. escape');
	t.match(seen[1], /^error: .*outside the workspace/, 'a .. escape through a subdirectory');
	t.match(seen[2], /^error: .*outside the workspace/, 'an absolute path');
	t.match(seen[3], /^error: .*symbolic link leads outside/, 'writing through a symlink');
	t.match(seen[4], /^error: .*symbolic link leads outside/, 'reading through a symlink');
	t.match(seen[5], /^error: .*(dangling|symbolic link)/, 'writing through a dangling symlink');
	t.match(seen[6], /^error: .*symbolic link leads outside/, 'listing through a symlink');
	t.match(seen[7], /^wrote 6 bytes to kept\.txt$/, 'a .. that stays inside is fine');
	t.equal(seen[8], 'inside');
	t.notOk(existsSync(join(dir, 'outside/planted.txt')), 'nothing was written outside');
	t.notOk(existsSync(join(dir, 'outside/nothing-here')), 'not even through the dangling link');
	const results = run.messages.filter(message => message.role === 'tool');
	t.same(results.map(message => message.is_error), [true, true, true, true, true, true, true, false, false]);
});

t.test('commands report exit status and output, with an output cap and their own deadline', async t => {
	process.env.HLAB_SECRET_FOR_TOOLS = 'visible-to-tools';
	t.teardown(() => {
		delete process.env.HLAB_SECRET_FOR_TOOLS;
	});
	const run = await runScripted(t, server, tasks[4]!);
	t.equal(run.outcome.status, 'done');
	const seen = observations.commands!;
	t.equal(seen[0], 'exit_code: 3\n--- stdout ---\nout\n\n--- stderr ---\nerr\n');
	t.match(seen[1], /^stdout exceeded 65536 bytes; the command was ended/);
	t.ok(seen[1]!.length < 70_000, 'the observation is capped');
	t.match(seen[2], /^timed out after 300 ms/);
	t.match(seen[3], /visible-to-tools/, 'the environment reaches commands');
	t.match(seen[5], /^error: invalid arguments for read_file/);
	const journalText = await readFile(join(run.stateDir, 'journal.jsonl'), 'utf8');
	t.match(journalText, /"type":"tool_result"/);
});

t.test('a tool the engine does not have is an error observation', async t => {
	const deadline = new Deadline(10_000);
	t.teardown(() => deadline.dispose());
	const result = await executeTool({root: await tempDir(t), deadline, env: {}, jobs: new BackgroundJobs()}, 'no_such_tool', '{}');
	t.same([result.is_error, result.content.startsWith('error: there is no tool named no_such_tool')], [true, true]);
});
