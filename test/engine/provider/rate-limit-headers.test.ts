import t from 'tap';
import {advisedWaitMs, parseDuration} from '../../../engine/provider/rate-limit-headers.js';

const now = Date.parse('2026-01-01T00:00:00Z');
const advised = (headers: Record<string, string>): number | null => advisedWaitMs(new Headers(headers), now);

t.test('Retry-After in seconds, as an HTTP date, and retry-after-ms', async t => {
	t.equal(advised({'retry-after': '2'}), 2000);
	t.equal(advised({'retry-after': '0.5'}), 500);
	t.equal(advised({'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT'}), 7000);
	t.equal(advised({'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT'}), 0, 'a date in the past is no wait, never a negative one');
	t.equal(advised({'retry-after-ms': '250', 'retry-after': '9'}), 250, 'the finer header wins');
	t.equal(advised({'retry-after': 'soon'}), null, 'what cannot be read is no advice');
	t.equal(advised({}), null);
});

t.test('the reset of the exhausted window, else the earliest reset', async t => {
	const resets = {'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '6m0s'};
	t.equal(advised({...resets, 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-remaining-tokens': '1000'}), 1000);
	t.equal(advised({...resets, 'x-ratelimit-remaining-requests': '12', 'x-ratelimit-remaining-tokens': '0'}), 360_000);
	t.equal(advised(resets), 1000, 'when no window says it is exhausted, the earliest');
	t.equal(advised({...resets, 'retry-after': '3'}), 3000, 'Retry-After is said directly, so it wins');
});

t.test('durations as providers write them', async t => {
	t.same(['1s', '6m0s', '250ms', '1h2m3.5s', '20', '1m30s', '0.5s'].map(parseDuration), [1000, 360_000, 250, 3_723_500, 20_000, 90_000, 500]);
	t.same(['', 'abc', '5 s', '1x', '-1s', 'ms'].map(parseDuration), [null, null, null, null, null, null]);
	t.equal(parseDuration(null), null);
});
