import t from 'tap';
import {detectableEffect, independentSides, passFailPower, signTestPower, taskSignFlipPower, trialsForPower} from '../../../supervisor/statistics/sign-test-power.js';
import {signTestCriticalCount} from '../../../supervisor/statistics/sign-test.js';
import {trialsForMeanPower} from '../../../supervisor/statistics/mean-difference-power.js';

t.test('the sign test power by hand: every discordant pair the candidate\'s', async t => {
	// Up to 8 pairs, significance at 95% needs 6 discordant pairs all one way: power = P(Binomial(N, q) ≥ 6).
	t.equal(signTestPower(5, {candidate_only: 1, baseline_only: 0}, 0.95), 0, 'five pairs can never be significant');
	t.ok(Math.abs(signTestPower(6, {candidate_only: 1, baseline_only: 0}, 0.95) - 1) < 1e-12);
	t.ok(Math.abs(signTestPower(6, {candidate_only: 0.5, baseline_only: 0}, 0.95) - 1 / 64) < 1e-12);
	t.ok(Math.abs(signTestPower(7, {candidate_only: 0.5, baseline_only: 0}, 0.95) - 8 / 128) < 1e-12);
	t.equal(signTestPower(50, {candidate_only: 0, baseline_only: 0}, 0.95), 0, 'no discordance: nothing to find');
});

t.test('independent sides: the discordance of two pass rates', async t => {
	const sides = independentSides(0.5, 0.15);
	t.ok(Math.abs(sides.candidate_only - 0.325) < 1e-12 && Math.abs(sides.baseline_only - 0.175) < 1e-12);
});

t.test('trials for power and the detectable effect are inverses, under the test the decision runs', async t => {
	const sides = independentSides(0.5, 0.15);
	const trials = trialsForPower(10, sides, 0.95, 0.8)!;
	t.ok(trials > 10 && trials < 40, `${trials} trials per task over 10 tasks`);
	t.ok(passFailPower(10, trials, sides, 0.95) >= 0.8);
	t.ok(passFailPower(10, trials - 1, sides, 0.95) < 0.8);
	const effect = detectableEffect(10, trials, 0.5, 0.95, 0.8)!;
	t.ok(effect <= 0.15 && effect > 0.13, `detectable effect ${effect}`);
	t.equal(detectableEffect(3, 1, 0.5, 0.95, 0.8), null, 'three pairs detect nothing');
	t.equal(detectableEffect(3, 50, 0.5, 0.95, 0.8), null, 'nor do three tasks however many trials: the sign-flip test over 3 tasks never goes below p = 1/4');
});

t.test('one trial per task is the sign test\'s exact power; with repeats the sign-flip test needs more trials than pairs counted alone', async t => {
	const sides = independentSides(0.5, 0.15);
	t.equal(passFailPower(12, 1, sides, 0.95), signTestPower(12, sides, 0.95));
	t.equal(taskSignFlipPower(5, 100, {candidate_only: 0.5, baseline_only: 0}, 0.95), 0, 'five tasks: 2/32 is the smallest p-value');
	t.ok(taskSignFlipPower(6, 100, {candidate_only: 0.5, baseline_only: 0}, 0.95) > 0.99, 'six tasks, each a clear win: found');
	t.ok(passFailPower(10, 19, sides, 0.95) < signTestPower(190, sides, 0.95), 'flipping whole tasks costs power');
});

t.test('trials for a mean difference: only the within-task part shrinks', async t => {
	// (z .975 + z .8)² = 7.849; effect 1 over 10 tasks: room 10/7.849 − between.
	t.equal(trialsForMeanPower(1, 10, {between_task: 0, within_task: 4}, 0.95, 0.8), Math.ceil(4 / (10 / 7.84887)));
	t.equal(trialsForMeanPower(1, 10, {between_task: 2, within_task: 4}, 0.95, 0.8), null, 'the tasks themselves differ too much: more tasks, not trials');
	t.equal(trialsForMeanPower(1, 10, {between_task: null, within_task: null}, 0.95, 0.8), null);
});

t.test('the power\'s critical counts, found incrementally, are the table\'s', async t => {
	// Every pair discordant: power = P(Binomial(n, share) ≥ n − critical(n)), with the critical count found directly.
	const tail = (n: number, from: number, p: number): number => {
		let sum = 0;
		let choose = 1;
		for (let k = 0; k <= n; k += 1) {
			if (k > 0) choose = (choose * (n - k + 1)) / k;
			if (k >= from) sum += choose * p ** k * (1 - p) ** (n - k);
		}
		return sum;
	};
	for (const n of [6, 9, 12, 17, 20, 33, 57]) {
		const critical = signTestCriticalCount(n, 0.95)!;
		const power = signTestPower(n, {candidate_only: 0.7, baseline_only: 0.3}, 0.95);
		t.ok(Math.abs(power - tail(n, n - critical, 0.7)) < 1e-9, `n = ${n} (critical ${critical}): power ${power.toFixed(6)}`);
	}
});
