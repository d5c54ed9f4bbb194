import {createServer, type IncomingMessage, type RequestListener, type Server} from 'node:http';
import {createServer as createTlsServer, globalAgent} from 'node:https';
import type {AddressInfo} from 'node:net';
import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {startMeteringProxy} from '../../../supervisor/host/metering-proxy.js';
import {closeHostSession, HostTaskRecord, openHostSession, runHostTask} from '../../../supervisor/host/index.js';
import {writeSyntheticHost} from './synthetic-host.js';

checkNoLeaks(t);

const usage = (prompt: number, completion: number) => ({prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion});

/** A real loopback provider: answers by path, and remembers the Authorization header of every request; over https with `tls`. */
async function upstream(t: Test, tls?: {key: string; cert: string}): Promise<{url: string; seen: Array<string | null>; abandoned: string[]}> {
	const seen: Array<string | null> = [];
	const abandoned: string[] = [];
	const answer: RequestListener = (request: IncomingMessage, response) => {
		seen.push(request.headers.authorization ?? null);
		const path = request.url ?? '';
		request.resume();
		request.on('end', () => {
			if (path.endsWith('/slow/chat/completions')) {
				// Never answers; records when the proxy gives the request up.
				response.on('close', () => abandoned.push(path));
			} else if (path.endsWith('/stream/chat/completions')) {
				response.writeHead(200, {'content-type': 'text/event-stream'});
				response.write(`data: ${JSON.stringify({choices: [{delta: {content: 'hi'}}]})}\n\n`);
				response.write(`data: ${JSON.stringify({choices: [], usage: usage(7, 3)})}\n\n`);
				response.end('data: [DONE]\n\n');
			} else if (path.endsWith('/broken/chat/completions')) {
				response.writeHead(200, {'content-type': 'application/json'});
				response.write('{"choices": [');
				response.destroy();
			} else if (path.endsWith('/limited/chat/completions')) {
				response.writeHead(429, {'content-type': 'application/json'});
				response.end(JSON.stringify({error: {message: 'slow down'}, usage: usage(100, 100)}));
			} else {
				response.writeHead(200, {'content-type': 'application/json', 'x-upstream': 'yes'});
				response.end(JSON.stringify({id: 'c1', choices: [{message: {role: 'assistant', content: 'ok'}}], usage: usage(11, 4)}));
			}
		});
	};
	const server: Server = tls === undefined ? createServer(answer) : createTlsServer(tls, answer);
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', () => resolve()));
	t.teardown(() => new Promise<void>(resolve => {
		server.closeAllConnections();
		server.close(() => resolve());
	}));
	return {url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen, abandoned};
}

const chatBody = JSON.stringify({model: 'm', messages: [{role: 'user', content: 'x'}]});
const post = (url: string, auth?: string) => fetch(url, {method: 'POST', headers: {'content-type': 'application/json', ...(auth === undefined ? {} : {authorization: auth})}, body: chatBody});

t.test('the proxy forwards the response unchanged, adds the supervisor\'s key, and counts turns and tokens', async t => {
	const provider = await upstream(t);
	const proxy = await startMeteringProxy({base_url: provider.url, model: 'm', api_key_env: 'K', reasoning_effort: null}, 'secret-key');
	t.teardown(() => proxy.close());
	t.equal(proxy.provider.api_key_env, null, 'the host is given no key variable');
	t.match(proxy.provider.base_url, /^http:\/\/127\.0\.0\.1:\d+$/);
	const answer = await post(`${proxy.provider.base_url}/chat/completions`, 'Bearer forged-by-host');
	t.equal(answer.status, 200);
	t.equal(answer.headers.get('x-upstream'), 'yes', 'headers pass through');
	t.same(await answer.json(), {id: 'c1', choices: [{message: {role: 'assistant', content: 'ok'}}], usage: usage(11, 4)}, 'the body is the provider\'s');
	t.same(provider.seen, ['Bearer secret-key'], 'the host\'s own Authorization is replaced by the supervisor\'s key');
	const stream = await post(`${proxy.provider.base_url}/stream/chat/completions`);
	t.match(await stream.text(), /data: \[DONE\]/, 'the event stream is relayed');
	const limited = await post(`${proxy.provider.base_url}/limited/chat/completions`);
	t.equal(limited.status, 429, 'an error status is relayed');
	await limited.text();
	t.same(proxy.usage(), {turns: 2, input_tokens: 18, output_tokens: 7, cache_read_tokens: null, cache_write_tokens: null, total_tokens: 25, cost_usd: null, token_source: 'provider'}, 'two answered turns; the refused request is not one');
	t.equal(proxy.requests(), 3);
});

t.test('an https provider is reached over TLS, metered the same', async t => {
	const fixtures = join(import.meta.dirname, '../../../../test/fixtures/tls');
	const [key, cert] = await Promise.all([readFile(join(fixtures, 'loopback.key'), 'utf8'), readFile(join(fixtures, 'loopback.crt'), 'utf8')]);
	const provider = await upstream(t, {key, cert});
	// The proxy's requests go through the default agent: it trusts the test's certificate for this test only.
	globalAgent.options.ca = cert;
	t.teardown(() => void delete globalAgent.options.ca);
	const proxy = await startMeteringProxy({base_url: provider.url, model: 'm', api_key_env: 'K', reasoning_effort: null}, 'secret-key');
	t.teardown(() => proxy.close());
	t.match(proxy.provider.base_url, /^http:\/\/127\.0\.0\.1:\d+$/, 'the host still talks plain http to its proxy on loopback');
	const answer = await post(`${proxy.provider.base_url}/chat/completions`);
	t.equal(answer.status, 200, await answer.clone().text());
	t.same(await answer.json(), {id: 'c1', choices: [{message: {role: 'assistant', content: 'ok'}}], usage: usage(11, 4)});
	t.same(provider.seen, ['Bearer secret-key'], 'the key went to the provider, inside TLS');
	t.match(proxy.usage(), {turns: 1, input_tokens: 11, output_tokens: 4, token_source: 'provider'});
});

t.test('a response lost in flight makes the token count unknown, never a short number', async t => {
	const provider = await upstream(t);
	const proxy = await startMeteringProxy({base_url: provider.url, model: 'm', api_key_env: null, reasoning_effort: null}, null);
	t.teardown(() => proxy.close());
	await (await post(`${proxy.provider.base_url}/chat/completions`)).text();
	await post(`${proxy.provider.base_url}/broken/chat/completions`).then(response => response.text()).catch(() => null);
	await new Promise(resolve => setTimeout(resolve, 50));
	t.equal(proxy.usage().total_tokens, null);
	t.same(provider.seen, [null, null], 'without a key no Authorization header is sent');
});

t.test('a host that goes away mid-request leaves no request behind, and its tokens unknown', async t => {
	const provider = await upstream(t);
	const proxy = await startMeteringProxy({base_url: provider.url, model: 'm', api_key_env: null, reasoning_effort: null}, null);
	t.teardown(() => proxy.close());
	await (await post(`${proxy.provider.base_url}/chat/completions`)).text();
	const gone = await fetch(`${proxy.provider.base_url}/slow/chat/completions`, {method: 'POST', body: chatBody, signal: AbortSignal.timeout(200)}).catch((error: Error) => error);
	t.type(gone, Error, 'the host gave up');
	for (let waited = 0; provider.abandoned.length === 0 && waited < 3000; waited += 25) await new Promise(resolve => setTimeout(resolve, 25));
	t.same(provider.abandoned, ['/v1/slow/chat/completions'], 'the proxy ended its request to the provider');
	t.equal(proxy.usage().turns, 1);
	t.equal(proxy.usage().total_tokens, null, 'what the abandoned request spent is unknown');
});

t.test('a host task is metered: its key variable is withheld, its claim is kept beside the count', async t => {
	const root = await tempDir(t, 'hlab-metering-');
	const provider = await upstream(t);
	process.env.HLAB_METERING_TEST_KEY = 'supervisor-only';
	t.teardown(() => {
		delete process.env.HLAB_METERING_TEST_KEY;
	});
	// Two real turns through the endpoint it was given, then a claim of one turn and a single token.
	const exe = await writeSyntheticHost(root, 'under-reporter', `
		writeFileSync(join(request.workspace, 'key.txt'), process.env.HLAB_METERING_TEST_KEY ?? 'absent');
		for (let turn = 0; turn < 2; turn++) {
			const answer = await fetch(request.provider.base_url + '/chat/completions', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({model: request.provider.model, messages: [{role: 'user', content: request.task.prompt}]})});
			await answer.json();
		}
		const claim = {...usage, turns: 1, input_tokens: 1, output_tokens: 0, total_tokens: 1};
		return {version: 1, binary: self, task_id: request.task.id, outcome: {...done, usage: claim}};`);
	const planDigest = `sha256:${'c'.repeat(64)}`;
	const session = await openHostSession({artifacts: join(root, 'attempt'), exe, planDigest, taskIds: ['a']});
	const workspace = join(root, 'work');
	await mkdir(workspace);
	const run = await runHostTask(session, {index: 0, task: {id: 'a', prompt: 'p'}, workspace, stateDir: join(root, 'state'), provider: {base_url: provider.url, model: 'm', api_key_env: 'HLAB_METERING_TEST_KEY', reasoning_effort: null}, maxSteps: 2, deadlineMs: 20_000});
	t.equal(run.failure, null);
	t.equal(await readFile(join(workspace, 'key.txt'), 'utf8'), 'absent', 'the host process never sees the key');
	t.same(provider.seen, ['Bearer supervisor-only', 'Bearer supervisor-only'], 'the proxy authenticated both turns');
	t.equal(run.metered.turns, 2);
	t.equal(run.metered.total_tokens, 30);
	t.equal(run.claimed?.total_tokens, 1);
	const record = HostTaskRecord.parse(JSON.parse(await readFile(join(session.dir, 'tasks', '001-a', 'host-task.json'), 'utf8')));
	t.equal(record.metered_usage?.total_tokens, 30);
	t.equal(record.claimed_usage?.total_tokens, 1);
	const request = JSON.parse(await readFile(join(session.dir, 'tasks', '001-a', 'request.json'), 'utf8'));
	t.equal(request.provider.api_key_env, null, 'the request names no key variable');
	t.not(request.provider.base_url, provider.url, 'the host was served the proxy, not the provider');
	t.ok(record.started_ms !== null && record.ended_ms !== null && record.ended_ms - record.started_ms >= record.wall_ms - 1, 'the launch\'s monotonic span covers its process record');
	const closed = await closeHostSession(session);
	t.equal(closed.closed?.attempt_wall_ms, record.ended_ms! - record.started_ms!);
	t.equal(closed.closed?.task_sum_ms, record.wall_ms);
});
