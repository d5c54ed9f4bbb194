import t from 'tap';
import {ExecutionOutcome, totalProviderTime, type ProviderTime} from '../../../engine/index.js';
import {ProviderTimeMeter} from '../../../engine/provider/provider-time-meter.js';

t.test('working time is the wall time minus the waits on the limiter and on retries', async t => {
	const meter = new ProviderTimeMeter();
	meter.sent();
	meter.waitedForLimiter(120.04);
	meter.sent();
	meter.retried(1000.5);
	meter.sent();
	t.same(meter.snapshot(3000), {requests: 3, retries: 1, limiter_wait_ms: 120, retry_wait_ms: 1000.5, wall_ms: 3000, working_ms: 1879.5});
	t.same(new ProviderTimeMeter().snapshot(10), {requests: 0, retries: 0, limiter_wait_ms: 0, retry_wait_ms: 0, wall_ms: 10, working_ms: 10}, 'no request, no wait: all of it worked');
});

t.test('totals are unknown when one task\'s time is unknown, never a partial sum', async t => {
	const a: ProviderTime = {requests: 2, retries: 1, limiter_wait_ms: 10, retry_wait_ms: 500, wall_ms: 2000, working_ms: 1490};
	const b: ProviderTime = {requests: 1, retries: 0, limiter_wait_ms: 0, retry_wait_ms: 0, wall_ms: 300, working_ms: 300};
	t.same(totalProviderTime([a, b]), {requests: 3, retries: 1, limiter_wait_ms: 10, retry_wait_ms: 500, wall_ms: 2300, working_ms: 1790});
	t.equal(totalProviderTime([a, null]), null);
	t.same(totalProviderTime([]), {requests: 0, retries: 0, limiter_wait_ms: 0, retry_wait_ms: 0, wall_ms: 0, working_ms: 0});
});

t.test('an outcome from a host build that does not report provider time parses, with both unknown', async t => {
	const older = {status: 'done', reason: null, message: null, steps: 1, usage: {turns: 1, input_tokens: 1, output_tokens: 1, cache_read_tokens: null, cache_write_tokens: null, total_tokens: 2, cost_usd: null}, final_text: 'done', stopped_by: null};
	t.match(ExecutionOutcome.parse(older), {time: null, infrastructure: null});
});
