import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {runAgent, type ExecutionOutcome} from '../../engine/index.js';
import {readJsonl, tempDir} from './engine-run.js';

checkNoLeaks(t);

const keyVariable = 'HLAB_TEST_PROVIDER_KEY';
const key = 'sk-test-0123456789-never-written';
process.env[keyVariable] = key;

interface Seen {
	requests: {authorization: string | undefined; body: any}[];
}

/** A local HTTP server standing in for a provider; `answer` decides each response. */
async function provider(t: Test, answer: (request: IncomingMessage, response: ServerResponse, body: any, seen: Seen) => void): Promise<{url: string; seen: Seen}> {
	const seen: Seen = {requests: []};
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', chunk => chunks.push(chunk as Buffer));
		request.on('end', () => {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
			seen.requests.push({authorization: request.headers.authorization, body});
			answer(request, response, body, seen);
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	t.teardown(() => new Promise<void>(resolve => {
		server.close(() => resolve());
		server.closeAllConnections();
	}));
	return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen};
}

function json(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, {'content-type': 'application/json'});
	response.end(JSON.stringify(body));
}

async function run(t: Test, url: string, options: {apiKeyEnv?: string} = {}): Promise<{outcome: ExecutionOutcome; stateDir: string; workspace: string}> {
	const dir = await tempDir(t);
	const stateDir = join(dir, 'state');
	const outcome = await runAgent({
		task: {id: 'provider-test', prompt: 'Say hello.'},
		workspace: dir,
		stateDir,
		provider: {base_url: url, model: 'test-model', api_key_env: options.apiKeyEnv ?? keyVariable, reasoning_effort: 'low'},
		maxSteps: 5,
		deadlineMs: 20_000,
		plugins: [],
	});
	return {outcome, stateDir, workspace: dir};
}

/** Every file the execution wrote, as one text. */
async function recorded(stateDir: string): Promise<string> {
	const names = await readdir(stateDir);
	return (await Promise.all(names.map(name => readFile(join(stateDir, name), 'utf8')))).join('\n');
}

t.test('a 401 is an auth failure', async t => {
	const endpoint = await provider(t, (_request, response) => json(response, 401, {error: {message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key'}}));
	const {outcome, stateDir} = await run(t, endpoint.url);
	t.same([outcome.status, outcome.reason, outcome.usage.turns], ['failed', 'auth', 0]);
	t.match(outcome.message, /401/);
	t.equal(endpoint.seen.requests.length, 1, 'an auth failure is not retried');
	t.equal(endpoint.seen.requests[0]!.authorization, `Bearer ${key}`, 'the key from the named variable was sent');
	t.equal(outcome.usage.input_tokens, 0, 'a refused request used no tokens');
	t.notMatch(await recorded(stateDir), key, 'the key is written nowhere');
});

t.test('a 403 is an auth failure', async t => {
	const endpoint = await provider(t, (_request, response) => json(response, 403, {error: {message: 'Forbidden', type: 'permission_error'}}));
	const {outcome} = await run(t, endpoint.url);
	t.same([outcome.status, outcome.reason], ['failed', 'auth']);
});

t.test('a missing key is an auth failure before any request', async t => {
	const endpoint = await provider(t, (_request, response) => json(response, 500, {}));
	const {outcome} = await run(t, endpoint.url, {apiKeyEnv: 'HLAB_TEST_VARIABLE_THAT_IS_NOT_SET'});
	t.same([outcome.status, outcome.reason], ['failed', 'auth']);
	t.match(outcome.message, /HLAB_TEST_VARIABLE_THAT_IS_NOT_SET/);
	t.equal(endpoint.seen.requests.length, 0);
});

t.test('an answer that is not JSON is a provider failure, with unknown usage', async t => {
	const endpoint = await provider(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end('<html><body>502 upstream garbage \u0000\u0001</body></html>');
	});
	const {outcome, stateDir} = await run(t, endpoint.url);
	t.same([outcome.status, outcome.reason, outcome.usage.turns], ['failed', 'provider', 0]);
	t.match(outcome.message, /not JSON/);
	t.equal(outcome.usage.input_tokens, null, 'tokens the provider may have used are unknown, not 0');
	t.equal(outcome.usage.total_tokens, null);
	const journal = await readJsonl(join(stateDir, 'journal.jsonl'));
	t.ok(journal.some(record => record.type === 'request_error' && record.reason === 'provider'));
});

t.test('JSON that is not a chat completion is a provider failure', async t => {
	const endpoint = await provider(t, (_request, response) => json(response, 200, {hello: 'world'}));
	const {outcome} = await run(t, endpoint.url);
	t.same([outcome.status, outcome.reason], ['failed', 'provider']);
	t.match(outcome.message, /not a chat completion/);
});

t.test('a working provider: the answers drive the tools, usage is summed, the key never reaches a command', async t => {
	const endpoint = await provider(t, (_request, response, body) => {
		const step = body.messages.filter((message: {role: string}) => message.role === 'assistant').length;
		const calls = [
			null,
			{name: 'run_command', arguments: JSON.stringify({command: `echo "key=[$${keyVariable}]"`})},
			{name: 'done', arguments: JSON.stringify({summary: 'said hello'})},
		];
		const call = calls[step];
		json(response, 200, {
			id: `chatcmpl-${step}`,
			object: 'chat.completion',
			model: body.model,
			choices: [{index: 0, finish_reason: call ? 'tool_calls' : 'stop', message: call
				? {role: 'assistant', content: null, tool_calls: [{id: `call_${step}`, type: 'function', function: call}]}
				: {role: 'assistant', content: 'Hello! Let me check something first.'}}],
			usage: {prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_tokens_details: {cached_tokens: step * 40}, cost: 0.25},
		});
	});
	const {outcome, stateDir} = await run(t, endpoint.url);
	t.same([outcome.status, outcome.final_text], ['done', 'said hello']);
	t.same(outcome.usage, {turns: 3, input_tokens: 300, output_tokens: 30, cache_read_tokens: 120, cache_write_tokens: null, total_tokens: 330, cost_usd: 0.75});
	t.equal(endpoint.seen.requests[0]!.body.reasoning_effort, 'low', 'the reasoning setting is sent');
	const messages = (await readJsonl(join(stateDir, 'messages.jsonl'))).map(record => record.message);
	t.same(messages.slice(2, 4).map(message => [message.role, message.content]), [
		['assistant', 'Hello! Let me check something first.'],
		['user', 'Continue with the task using the tools; call done with a summary once it is complete.'],
	], 'a text-only answer is followed by a request to continue');
	const observation = messages.find(message => message.role === 'tool')!.content as string;
	t.match(observation, /key=\[\]/, 'the key variable is removed from the commands\' environment');
	t.notMatch(await recorded(stateDir), key, 'the key is written nowhere');
});
