import t from 'tap';
import {EngineError} from '../../../engine/engine-error.js';
import type {RequestFailure} from '../../../engine/provider/model-request.js';
import {backoff, backoffMs, isRetryable, minimumAttemptMs, planRetry} from '../../../engine/provider/retry-policy.js';

function statusFailure(status: number, headers: Record<string, string> = {}): RequestFailure {
	return {error: new EngineError(status === 401 || status === 403 ? 'auth' : 'provider', `HTTP ${status}`), usageUnknown: false, kind: 'status', status, headers: new Headers(headers)};
}

const lost = (kind: RequestFailure['kind']): RequestFailure => ({error: new EngineError('provider', kind), usageUnknown: true, kind, status: null, headers: null});

t.test('what is retried: rate limits, conflicts, request timeouts, server errors, lost connections, slow requests', async t => {
	t.same([408, 409, 429, 500, 502, 503, 504, 529].map(status => isRetryable(statusFailure(status))), Array(8).fill(true));
	t.same([400, 401, 403, 404, 422].map(status => isRetryable(statusFailure(status))), Array(5).fill(false), 'never 400/401/403/404');
	t.same([lost('connection'), lost('request_timeout')].map(isRetryable), [true, true]);
	t.same([lost('ended'), lost('answer')].map(isRetryable), [false, false], 'not the deadline, not a garbled answer');
});

t.test('backoff doubles per retry up to its cap, jittered between half the ceiling and the ceiling', async t => {
	t.same([0, 1, 2, 3].map(retry => backoffMs(retry, () => 0)), [250, 500, 1000, 2000]);
	t.same([0, 1, 2, 3].map(retry => backoffMs(retry, () => 1)), [500, 1000, 2000, 4000]);
	t.equal(backoffMs(30, () => 1), backoff.capMs);
	const draws = Array.from({length: 50}, () => backoffMs(2));
	t.ok(draws.every(ms => ms >= 1000 && ms <= 2000));
	t.ok(new Set(draws).size > 40, 'the jitter spreads retries apart');
});

t.test('the provider\'s advice is waited, never less, and never past the deadline', async t => {
	const plan = planRetry(statusFailure(429, {'retry-after': '3'}), 0, 60_000, () => 0.5);
	t.match(plan, {retry: true, advisedMs: 3000});
	t.ok(plan.retry && plan.waitMs >= 3000 && plan.waitMs <= 3250);
	t.match(planRetry(statusFailure(429, {'retry-after': '3'}), 0, 3000, () => 0.5), {retry: false, why: 'no_time'}, 'a wait that would pass the deadline is not started');
	t.match(planRetry(statusFailure(503), 0, 400 + minimumAttemptMs, () => 0), {retry: true, waitMs: 250});
	t.match(planRetry(statusFailure(503), 0, 200 + minimumAttemptMs, () => 0), {retry: false, why: 'no_time'}, 'a retry needs time for the request itself');
	t.match(planRetry(statusFailure(401), 0, 60_000), {retry: false, why: 'final'});
	t.match(planRetry(statusFailure(503, {'retry-after': '0'}), 3, 60_000, () => 0), {retry: true, waitMs: 0}, 'advice to retry at once is taken');
});

t.test('advice is the wait at every retry: the backoff does not grow under it (a storm\'s unlucky task keeps pace)', async t => {
	const waits = Array.from({length: 12}, (_, retry) => planRetry(statusFailure(429, {'retry-after': '1'}), retry, 60_000, () => 1));
	t.same(waits.map(plan => plan.retry && plan.waitMs), Array(12).fill(1100), 'one second plus at most a tenth, the 12th time as the first');
	const dated = planRetry(statusFailure(429, {'retry-after': new Date(Date.now() + 2000).toUTCString()}), 8, 60_000, () => 0);
	t.ok(dated.retry && dated.waitMs <= 2000 && dated.waitMs > 900, `an HTTP date is the wait too (${dated.retry && dated.waitMs} ms)`);
	t.match(planRetry(statusFailure(429, {'retry-after-ms': '300'}), 9, 60_000, () => 0), {retry: true, waitMs: 300});
	t.match(planRetry(statusFailure(429, {'x-ratelimit-reset-requests': '2s', 'x-ratelimit-remaining-requests': '0'}), 9, 60_000, () => 0), {retry: true, waitMs: 2000});
	t.match(planRetry(statusFailure(503), 9, 60_000, () => 1), {retry: true, waitMs: backoff.capMs}, 'without advice the backoff grows as before');
});
