import {createServer} from 'node:net';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {createProviderLimiter} from '../../engine/index.js';
import {answerTwoTurns, json, runTask, startEndpoint, twoTurnAnswer} from './provider-endpoint.js';

checkNoLeaks(t);

const overloaded = {error: {message: 'overloaded', type: 'server_error'}};

t.test('a burst of 503s is retried with growing, jittered backoff, and the task passes', async t => {
	const endpoint = await startEndpoint(t, (arrival, response) => {
		if (arrival.index < 3) json(response, 503, overloaded);
		else answerTwoTurns(response, arrival.body);
	});
	const outcome = await runTask(t, endpoint.url);
	t.same([outcome.status, outcome.infrastructure], ['done', false]);
	t.same([outcome.time!.requests, outcome.time!.retries], [5, 3]);
	const gaps = [1, 2, 3].map(index => endpoint.arrivals[index]!.at - endpoint.arrivals[index - 1]!.at);
	for (const [retry, gap] of gaps.entries()) {
		const ceiling = 500 * 2 ** retry;
		t.ok(gap >= ceiling / 2 - 5 && gap <= ceiling + 200, `retry ${retry} waited between half the ceiling and the ceiling of ${ceiling} ms (${Math.round(gap)} ms)`);
	}
	t.ok(outcome.time!.retry_wait_ms >= gaps.reduce((a, b) => a + b) - 20, 'the time lost to the retries is recorded');
	t.equal(outcome.usage.input_tokens, 100, 'refused requests used no tokens: usage stays known');
});

t.test('408 and 409 are retried too', async t => {
	const endpoint = await startEndpoint(t, (arrival, response) => {
		if (arrival.index === 0) json(response, 408, {error: {message: 'request timeout'}});
		else if (arrival.index === 1) json(response, 409, {error: {message: 'conflict'}});
		else answerTwoTurns(response, arrival.body);
	});
	const outcome = await runTask(t, endpoint.url);
	t.same([outcome.status, outcome.time!.retries], ['done', 2]);
});

t.test('a connection reset mid-response is retried; the lost answer makes usage unknown, never 0', async t => {
	const endpoint = await startEndpoint(t, (arrival, response) => {
		if (arrival.index >= 2) return answerTwoTurns(response, arrival.body);
		const text = JSON.stringify(twoTurnAnswer(arrival.body));
		response.writeHead(200, {'content-type': 'application/json', 'content-length': String(text.length)});
		response.write(text.slice(0, 40));
		setTimeout(() => response.socket?.destroy(), 20);
	});
	const outcome = await runTask(t, endpoint.url);
	t.same([outcome.status, outcome.time!.retries], ['done', 2]);
	t.equal(outcome.usage.input_tokens, null, 'the provider may have done the work it never finished sending');
});

t.test('a connection reset before any answer is retried', async t => {
	const endpoint = await startEndpoint(t, (arrival, response) => {
		if (arrival.index === 0) response.socket?.destroy();
		else answerTwoTurns(response, arrival.body);
	});
	const outcome = await runTask(t, endpoint.url);
	t.same([outcome.status, outcome.time!.retries], ['done', 1]);
});

t.test('slow headers: waited for within the task\'s time, or abandoned and retried past the request timeout', async t => {
	const slowFirst = (delayMs: number) => startEndpoint(t, (arrival, response) => {
		if (arrival.index === 0) setTimeout(() => answerTwoTurns(response, arrival.body), delayMs);
		else answerTwoTurns(response, arrival.body);
	});
	const patient = await slowFirst(800);
	const waited = await runTask(t, patient.url);
	t.same([waited.status, waited.time!.retries, patient.arrivals.length], ['done', 0, 2], 'without a request timeout the slow answer is waited for');

	const impatient = await slowFirst(3000);
	const started = performance.now();
	const retried = await runTask(t, impatient.url, {limiter: createProviderLimiter({request_timeout_ms: 300})});
	t.same([retried.status, retried.time!.retries, impatient.arrivals.length], ['done', 1, 3], 'past the request timeout it is abandoned and sent again');
	t.ok(performance.now() - started < 2500, 'the task did not wait for the slow answer');
});

t.test('an answer whose body stalls past the request timeout is abandoned and retried', async t => {
	const endpoint = await startEndpoint(t, (arrival, response) => {
		if (arrival.index > 0) return answerTwoTurns(response, arrival.body);
		response.writeHead(200, {'content-type': 'application/json'});
		response.write('{"id": "chatcmpl-stalled", ');
	});
	const outcome = await runTask(t, endpoint.url, {limiter: createProviderLimiter({request_timeout_ms: 400})});
	t.same([outcome.status, outcome.time!.retries, endpoint.arrivals.length], ['done', 1, 3]);
	t.equal(outcome.usage.input_tokens, null, 'the stalled answer may have used tokens nobody reported');
});

t.test('an endpoint that stays down past the deadline: a provider failure of the infrastructure, before the deadline', async t => {
	const endpoint = await startEndpoint(t, (_arrival, response) => json(response, 503, overloaded));
	const outcome = await runTask(t, endpoint.url, {deadlineMs: 2500});
	t.same([outcome.status, outcome.reason, outcome.infrastructure], ['failed', 'provider', true]);
	t.match(outcome.message, /stayed unavailable until the deadline.*HTTP 503/);
	t.ok(endpoint.arrivals.length >= 3, `it was retried meanwhile (${endpoint.arrivals.length} requests)`);
	t.ok(outcome.time!.wall_ms < 2500, 'it gave up when the next retry could not fit, not at the deadline');
	t.equal(outcome.time!.retries, endpoint.arrivals.length - 1);
});

t.test('an endpoint that refuses connections is retried, then the same infrastructure failure', async t => {
	const port = await new Promise<number>(resolve => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const {port} = server.address() as {port: number};
			server.close(() => resolve(port));
		});
	});
	const outcome = await runTask(t, `http://127.0.0.1:${port}/v1`, {deadlineMs: 2000});
	t.same([outcome.status, outcome.reason, outcome.infrastructure], ['failed', 'provider', true]);
	t.match(outcome.message, /ECONNREFUSED/);
	t.ok(outcome.time!.retries >= 2);
	t.equal(outcome.usage.input_tokens, 0, 'a refused connection used nothing');
});

t.test('a Retry-After longer than the time left fails at once, as an infrastructure failure', async t => {
	const endpoint = await startEndpoint(t, (_arrival, response) => json(response, 429, {error: {message: 'slow down'}}, {'retry-after': '60'}));
	const outcome = await runTask(t, endpoint.url, {deadlineMs: 5000});
	t.same([outcome.status, outcome.reason, outcome.infrastructure, endpoint.arrivals.length], ['failed', 'provider', true, 1]);
	t.ok(outcome.time!.wall_ms < 1000, 'no time is spent waiting for a turn that cannot come');
});

t.test('the rate-limit reset headers and an HTTP-date Retry-After are honoured', async t => {
	const refuse = (headers: Record<string, string>) => startEndpoint(t, (arrival, response) => {
		if (arrival.index === 0) json(response, 429, {error: {message: 'slow down'}}, headers);
		else answerTwoTurns(response, arrival.body);
	});
	const reset = await refuse({'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1.2s', 'x-ratelimit-remaining-tokens': '9000', 'x-ratelimit-reset-tokens': '50ms'});
	t.equal((await runTask(t, reset.url)).status, 'done');
	t.ok(reset.arrivals[1]!.at - reset.arrivals[0]!.at >= 1200, 'the exhausted window\'s reset was waited for');
	const dated = await refuse({'retry-after': new Date(Date.now() + 3000).toUTCString()});
	t.equal((await runTask(t, dated.url)).status, 'done');
	// An HTTP date has whole seconds: the wait is between 2 and 3 s.
	t.ok(dated.arrivals[1]!.at - dated.arrivals[0]!.at >= 1900, 'the date was waited for');
});

t.test('400, 401, 403 and 404 fail at once, with their reason and a single request', async t => {
	for (const [status, reason] of [[400, 'provider'], [401, 'auth'], [403, 'auth'], [404, 'provider']] as const) {
		const endpoint = await startEndpoint(t, (_arrival, response) => json(response, status, {error: {message: `refused with ${status}`}}));
		const outcome = await runTask(t, endpoint.url);
		t.same([outcome.status, outcome.reason, outcome.infrastructure, endpoint.arrivals.length, outcome.time!.retries], ['failed', reason, false, 1, 0], `HTTP ${status}`);
	}
});

t.test('a hanging endpoint still ends at the deadline with `timeout`, not as an infrastructure failure', async t => {
	const endpoint = await startEndpoint(t, () => undefined);
	const outcome = await runTask(t, endpoint.url, {deadlineMs: 800});
	t.same([outcome.status, outcome.reason, outcome.infrastructure, endpoint.arrivals.length], ['failed', 'timeout', false, 1]);
});

t.test('a limiter whose memory is not shared fails the task at init, before any request', async t => {
	const endpoint = await startEndpoint(t, (arrival, response) => answerTwoTurns(response, arrival.body));
	const share = createProviderLimiter({requests_per_minute: 60});
	const outcome = await runTask(t, endpoint.url, {limiter: {...share, buffer: new ArrayBuffer(share.buffer.byteLength) as unknown as SharedArrayBuffer}});
	t.same([outcome.status, outcome.reason, endpoint.arrivals.length], ['failed', 'init', 0]);
	t.match(outcome.message, /provider limiter is not usable/);
});
