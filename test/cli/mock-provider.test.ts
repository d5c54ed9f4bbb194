import {createServer} from 'node:net';
import {PassThrough} from 'node:stream';
import t, {type Test} from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup, type GroupRun} from '../../process/index.js';
import {runTask} from '../engine/provider-endpoint.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

interface Running {
	url: string;
	pid: number;
	stop: AbortController;
	done: Promise<GroupRun>;
}

/** `hlab mock-provider` as its own process; its URL read from the first line of its stdout. */
async function startProvider(t: Test, args: string[]): Promise<Running> {
	const stdout = new PassThrough();
	const stop = new AbortController();
	let pid = 0;
	const done = runInGroup({argv: [process.execPath, `${installRoot}/bin/hlab.js`, 'mock-provider', ...args], deadlineMs: 120_000, signal: stop.signal, stdout: {kind: 'stream', stream: stdout}, onSpawn: spawned => { pid = spawned; }});
	t.teardown(async () => {
		stop.abort();
		await done;
	});
	const url = await new Promise<string>((resolve, reject) => {
		let text = '';
		stdout.on('data', (chunk: Buffer) => {
			text += chunk.toString('utf8');
			if (text.includes('\n')) resolve(text.split('\n')[0]!);
		});
		void done.then(run => reject(new Error(`mock-provider ended before its URL: ${run.stderr?.toString() ?? ''}`)));
	});
	return {url, pid, stop, done};
}

const chat = (url: string, assistantTurns = 0): Promise<Response> => fetch(`${url}/chat/completions`, {
	method: 'POST', headers: {'content-type': 'application/json'},
	body: JSON.stringify({model: 'm', messages: [{role: 'user', content: 'hi'}, ...Array.from({length: assistantTurns}, () => ({role: 'assistant', content: 'x'}))]}),
});

t.test('constant: its URL on the first line, a two-turn answer, the models list; SIGINT and SIGTERM end it cleanly', async t => {
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		const provider = await startProvider(t, []);
		t.match(provider.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
		const first = await (await chat(provider.url)).json() as {choices: {finish_reason: string}[]};
		t.equal(first.choices[0]!.finish_reason, 'stop');
		const second = await (await chat(provider.url, 1)).json() as {choices: {message: {tool_calls: {function: {name: string}}[]}}[]};
		t.equal(second.choices[0]!.message.tool_calls[0]!.function.name, 'done');
		t.same((await (await fetch(`${provider.url}/models`)).json() as {data: {id: string}[]}).data.map(model => model.id), ['mock']);
		process.kill(provider.pid, signal);
		const run = await provider.done;
		t.equal(run.record.exit_code, 0, `${signal}: exit 0`);
		t.match(run.stderr?.toString(), new RegExp(`mock provider stopped \\(${signal}\\)`));
	}
});

t.test('storm: three of four refused with Retry-After; the engine waits as told and finishes', async t => {
	const provider = await startProvider(t, ['--scenario', 'storm']);
	const statuses: (number | string | null)[][] = [];
	for (let index = 0; index < 4; index += 1) {
		const response = await chat(provider.url);
		statuses.push([response.status, response.headers.get('retry-after')]);
		await response.arrayBuffer();
	}
	t.same(statuses, [[429, '1'], [429, '1'], [429, '1'], [200, null]]);
	const outcome = await runTask(t, provider.url, {deadlineMs: 30_000});
	t.equal(outcome.status, 'done', 'a client that honours Retry-After gets through');
	t.ok(outcome.time!.retries >= 3);
});

t.test('reset: every other connection is reset before any answer', async t => {
	const provider = await startProvider(t, ['--scenario', 'reset']);
	await t.rejects(chat(provider.url), 'the first request has its connection reset');
	t.equal((await chat(provider.url)).status, 200, 'the next is answered');
});

t.test('slow: the headers at once, the body over two seconds', async t => {
	const provider = await startProvider(t, ['--scenario', 'slow']);
	const start = performance.now();
	const response = await chat(provider.url);
	const headersMs = performance.now() - start;
	const body = await response.json() as {object: string};
	const bodyMs = performance.now() - start;
	t.ok(headersMs < 1000, `headers after ${Math.round(headersMs)} ms`);
	t.ok(bodyMs >= 1500, `the whole body after ${Math.round(bodyMs)} ms`);
	t.equal(body.object, 'chat.completion', 'and it is a whole answer');
});

t.test('garbage: a 200 with a JSON content type that is not JSON', async t => {
	const provider = await startProvider(t, ['--scenario', 'garbage']);
	const response = await chat(provider.url);
	t.equal(response.status, 200);
	t.equal(response.headers.get('content-type'), 'application/json');
	const text = await response.text();
	t.throws(() => JSON.parse(text));
});

t.test('bad input: an unknown scenario, a port out of range, a port in use: one line, exit 2', async t => {
	const busy = createServer().listen(0, '127.0.0.1');
	await new Promise(resolve => busy.once('listening', resolve));
	t.teardown(() => new Promise(resolve => busy.close(resolve)));
	const port = (busy.address() as {port: number}).port;
	for (const args of [['--scenario', 'chaos'], ['--port', '70000'], ['--port', String(port)]]) {
		const run = await hlab(['mock-provider', ...args]);
		t.equal(run.record.exit_code, 2, args.join(' '));
		t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
		t.equal(run.stdout, '', 'no URL is printed');
	}
});
