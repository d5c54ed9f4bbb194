import t from 'tap';
import {exactSignTest, fewestSignificantPairs, signTestCriticalCount} from '../../../supervisor/statistics/sign-test.js';

/**
 * Critical values of the sign test, α = 0.05 two tails (reject when the less frequent sign occurs at most this
 * often; null where the table prints `*`, no split is significant): M. F. Triola, Elementary Statistics,
 * Appendix A, Table A-7 "Critical Values for the Sign Test" (Pearson Addison-Wesley, 2004), n = 1..20.
 */
const tableA7 = [null, null, null, null, null, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5];

t.test('the critical counts at 95% two-sided match the published table for n = 1..20', async t => {
	t.strictSame(tableA7.map((_, index) => signTestCriticalCount(index + 1, 0.95)), tableA7);
});

t.test('each critical count is the edge: one more pair for the losing side is not significant', async t => {
	for (let n = 6; n <= 20; n += 1) {
		const critical = signTestCriticalCount(n, 0.95)!;
		t.ok(exactSignTest(n - critical, critical) <= 0.05, `n = ${n}: ${critical} is significant`);
		t.ok(exactSignTest(n - critical - 1, critical + 1) > 0.05, `n = ${n}: ${critical + 1} is not`);
	}
});

t.test('the fewest pairs, all one way, that can be significant', async t => {
	t.equal(fewestSignificantPairs(0.95), 6, 'at 95%: 2/64 ≤ 0.05 while 2/32 is not');
	t.equal(fewestSignificantPairs(0.99), 8, 'at 99%: 2/256 ≤ 0.01 while 2/128 is not');
	t.equal(fewestSignificantPairs(0.9), 5);
});
