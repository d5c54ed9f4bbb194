import {existsSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {builtinAgent, fingerprintHarness, type Harness} from '../../harness/index.js';
import {runAgent, scriptedModel} from '../../engine/index.js';
import type {ReferenceScript} from '../../tasks/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {readJsonl, runScripted, scriptedServer, tempDir} from '../engine/engine-run.js';

checkNoLeaks(t);

function harnessWith(change: (harness: Harness) => void): Harness {
	const copy = structuredClone(builtinAgent);
	change(copy);
	return copy;
}

const withoutCommands = harnessWith(harness => (harness.enabled_tools = harness.enabled_tools.filter(name => name !== 'run_command')));

/** A task whose reference only writes and reads files, and one that calls done without a summary first. */
const fileWork: ReferenceScript = function* () {
	yield {tool: 'write_file', args: {path: 'note.txt', content: 'hello'}};
	yield {tool: 'read_file', args: {path: 'note.txt'}};
	return 'wrote and read note.txt';
};
const bareDone: ReferenceScript = function* () {
	yield {tool: 'done', args: {}};
	return 'finished with a summary';
};
const reading: ReferenceScript = function* () {
	for (let index = 0; index < 10; index += 1) yield {tool: 'list_files', args: {}};
	return 'listed';
};
const templated = {id: 'templated', prompt: 'list the files'};
const server = await scriptedServer(t, [
	{id: 'file-work', prompt: 'work with files', reference: fileWork},
	{id: 'bare-done', prompt: 'finish at once', reference: bareDone},
	{id: 'templated', prompt: `Task templated:\n${templated.prompt}`, reference: reading},
]);

/** A loopback provider that asks for `run_command` (whether offered or not), then finishes. */
async function commandingProvider(t: Test, command: string): Promise<{url: string; offered: string[][]}> {
	const offered: string[][] = [];
	const endpoint = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', chunk => chunks.push(chunk as Buffer));
		request.on('end', () => {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			offered.push(body.tools.map((tool: {function: {name: string}}) => tool.function.name));
			const step = body.messages.filter((message: {role: string}) => message.role === 'assistant').length;
			const call = step === 0 ? {name: 'run_command', arguments: JSON.stringify({command})} : {name: 'done', arguments: JSON.stringify({summary: 'tried'})};
			response.writeHead(200, {'content-type': 'application/json'});
			response.end(JSON.stringify({
				id: `chatcmpl-${step}`, object: 'chat.completion', model: body.model,
				choices: [{index: 0, finish_reason: 'tool_calls', message: {role: 'assistant', content: null, tool_calls: [{id: `call_${step}`, type: 'function', function: call}]}}],
				usage: {prompt_tokens: 10, completion_tokens: 5, total_tokens: 15},
			}));
		});
	});
	await new Promise<void>(resolve => endpoint.listen(0, '127.0.0.1', resolve));
	t.teardown(() => new Promise<void>(resolve => {
		endpoint.close(() => resolve());
		endpoint.closeAllConnections();
	}));
	return {url: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`, offered};
}

async function runAgainst(t: Test, url: string, harness: Harness | undefined): Promise<{outcome: Awaited<ReturnType<typeof runAgent>>; workspace: string; stateDir: string; groups: number[]}> {
	const workspace = await tempDir(t);
	const stateDir = join(await tempDir(t), 'state');
	const groups: number[] = [];
	const outcome = await runAgent({
		harness,
		task: {id: 'commanding', prompt: 'run something'},
		workspace,
		stateDir,
		provider: {base_url: url, model: 'test-model', api_key_env: null},
		maxSteps: 5,
		deadlineMs: 20_000,
		plugins: [],
		onProcessGroup: pid => groups.push(pid),
	});
	return {outcome, workspace, stateDir, groups};
}

t.test('a disabled tool is never offered, and the run goes on without it', async t => {
	const run = await runScripted(t, server, {id: 'file-work', prompt: 'work with files'}, {harness: withoutCommands});
	t.same([run.outcome.status, run.outcome.final_text], ['done', 'wrote and read note.txt']);
	const requests = run.journal.filter(record => record.type === 'request');
	t.equal(requests.length, 3);
	for (const request of requests) t.same(request.body.tools.map((tool: {function: {name: string}}) => tool.function.name), ['read_file', 'write_file', 'list_files', 'done']);
	const start = run.journal.find(record => record.type === 'start')!;
	t.same(start.harness, {name: 'builtin-coding-agent', fingerprint: fingerprintHarness(withoutCommands)}, 'the journal names the harness that ran');
	t.not(start.harness.fingerprint.digest, fingerprintHarness(builtinAgent).digest);
});

t.test('a call to a disabled tool is refused: an error observation, and nothing runs', async t => {
	const endpoint = await commandingProvider(t, 'touch made-by-command');
	const refused = await runAgainst(t, endpoint.url, withoutCommands);
	t.same([refused.outcome.status, refused.outcome.final_text], ['done', 'tried']);
	t.notOk(existsSync(join(refused.workspace, 'made-by-command')), 'the command did not run');
	t.same(refused.groups, [], 'no process group was started');
	const messages = (await readJsonl(join(refused.stateDir, 'messages.jsonl'))).map(record => record.message);
	const observation = messages.find(message => message.role === 'tool')!;
	t.equal(observation.content, 'error: there is no tool named run_command; the tools are read_file, write_file, list_files and done');
	t.equal(observation.is_error, true);
	t.ok(endpoint.offered.every(names => !names.includes('run_command')), 'it was never offered either');

	// The same provider with the built-in harness: the call is dispatched, so the refusal above is the harness's doing.
	const allowed = await runAgainst(t, endpoint.url, undefined);
	t.equal(allowed.outcome.status, 'done');
	t.ok(existsSync(join(allowed.workspace, 'made-by-command')), 'with run_command enabled the command runs');
	t.equal(allowed.groups.length, 1);
});

t.test('a tool bound to an implementation the engine lacks is a named failure before any request', async t => {
	const endpoint = await commandingProvider(t, 'true');
	const unknown = harnessWith(harness => (harness.tools[3]!.implementation = 'cartridge:run_command'));
	const run = await runAgainst(t, endpoint.url, unknown);
	t.same([run.outcome.status, run.outcome.reason, run.outcome.steps], ['failed', 'missing_tool', 0]);
	t.equal(run.outcome.message, 'tool run_command is bound to cartridge:run_command, which this engine does not implement');
	t.same(endpoint.offered, [], 'the provider was never asked');
	const journal = await readJsonl(join(run.stateDir, 'journal.jsonl'));
	t.same(journal.map(record => record.type), ['start', 'end'], 'the failure is journaled like any other');

	const disabled = harnessWith(harness => {
		harness.tools[3]!.implementation = 'cartridge:run_command';
		harness.enabled_tools = harness.enabled_tools.filter(name => name !== 'run_command');
	});
	t.equal((await runAgainst(t, endpoint.url, disabled)).outcome.status, 'done', 'a disabled tool need not be runnable here');
});

t.test('parameters that are not the implementation\'s schema, or a value that is no Harness, fail at init', async t => {
	const endpoint = await commandingProvider(t, 'true');
	const loosened = harnessWith(harness => {
		const parameters = harness.tools[0]!.parameters;
		parameters.required = [];
	});
	const mismatch = await runAgainst(t, endpoint.url, loosened);
	t.same([mismatch.outcome.status, mismatch.outcome.reason], ['failed', 'init']);
	t.match(mismatch.outcome.message, /tool read_file: its parameters are not the argument schema of builtin:read_file/);
	const invalid = await runAgainst(t, endpoint.url, harnessWith(harness => harness.enabled_tools.push('grep')));
	t.same([invalid.outcome.status, invalid.outcome.reason], ['failed', 'init']);
	t.match(invalid.outcome.message, /the harness is not valid: enabled_tools\.5: grep is enabled but no tool of that name is defined/);
	const start = (await readJsonl(join(invalid.stateDir, 'journal.jsonl')))[0]!;
	t.equal(start.harness, null, 'an invalid harness has no fingerprint');
	t.same(endpoint.offered, []);
});

t.test('the harness\'s instructions, task template and limits drive the loop', async t => {
	const harness = harnessWith(harness => {
		harness.instructions.system = 'You list files, nothing else.';
		harness.task_template = {text: 'Task {{task_id}}:\n{{prompt}}', variables: ['prompt', 'task_id']};
		harness.limits = {max_steps: 3, deadline_ms: 30_000};
	});
	const dir = await tempDir(t);
	const stateDir = join(dir, 'state');
	const outcome = await runAgent({harness, task: templated, workspace: dir, stateDir, provider: {base_url: server.url, model: scriptedModel, api_key_env: null}, plugins: []});
	t.same([outcome.status, outcome.reason, outcome.steps], ['unfinished', 'unfinished', 3], 'the harness\'s step limit ends the loop when the run gives no budget');
	const journal = await readJsonl(join(stateDir, 'journal.jsonl'));
	t.same([journal[0]!.max_steps, journal[0]!.timeout_ms], [3, 30_000]);
	const messages = (await readJsonl(join(stateDir, 'messages.jsonl'))).map(record => record.message);
	t.same(messages.slice(0, 2).map(message => message.content), ['You list files, nothing else.', 'Task templated:\nlist the files']);

	const budgeted = await runAgent({harness, task: templated, workspace: dir, stateDir: join(dir, 'budgeted'), provider: {base_url: server.url, model: scriptedModel, api_key_env: null}, plugins: [], maxSteps: 1});
	t.equal(budgeted.steps, 1, 'a run\'s budget replaces the harness\'s limit');
});

t.test('done without a summary is an error observation the model can correct', async t => {
	const run = await runScripted(t, server, {id: 'bare-done', prompt: 'finish at once'});
	t.same([run.outcome.status, run.outcome.final_text, run.outcome.steps], ['done', 'finished with a summary', 2]);
	const observation = run.messages.find(message => message.role === 'tool')!;
	t.match(observation.content, /^error: invalid arguments for done: summary: /);
	t.equal(observation.is_error, true);
});
