import t from 'tap';
import {uniformFloat64} from 'pure-rand/distribution/uniformFloat64';
import {xoroshiro128plus} from 'pure-rand/generator/xoroshiro128plus';
import {taskSignFlipTest} from '../../../supervisor/statistics/task-sign-flip.js';
import {exactSignTest} from '../../../supervisor/statistics/sign-test.js';

t.test('the sign-flip test by hand: every assignment of signs counted', async t => {
	t.equal(taskSignFlipTest([]), 1);
	t.equal(taskSignFlipTest([0, 0, 0]), 1, 'no task tells the sides apart');
	t.equal(taskSignFlipTest([2, -2]), 1, 'a net of zero');
	// Tasks with nets 3, 1, 1: of the 8 sign assignments, sums 5, 3, 3, 1, −1, −3, −3, −5; |sum| ≥ 5 in 2.
	t.equal(taskSignFlipTest([3, 1, 1]), 2 / 8);
	// Nets 3, 1: sums 4, 2, −2, −4; |sum| ≥ 2 always.
	t.equal(taskSignFlipTest([3, -1]), 1);
	// Six tasks all won: 2 / 64, however large each task's win.
	t.equal(taskSignFlipTest([5, 5, 5, 5, 5, 5]), 2 / 64);
	t.equal(taskSignFlipTest([1, 2, 3, 4, 5]), 2 / 32, 'five tasks can never reach 5%');
});

t.test('with one pair per task it is the exact sign test', async t => {
	for (const [a, b] of [[6, 0], [8, 2], [3, 3], [12, 4], [0, 7]] as const) {
		const nets = [...Array.from({length: a}, () => 1), ...Array.from({length: b}, () => -1), 0, 0];
		t.ok(Math.abs(taskSignFlipTest(nets) - exactSignTest(a, b)) < 1e-12, `${a} against ${b}`);
	}
});

/**
 * A clustered null: each task has its own pass rate, shared by both sides (so no side is better), drawn so that the
 * trials of one task agree strongly; 20 tasks × 5 trials. The sign test over pairs counts each task's correlated
 * discordant pairs as independent and rejects too often; the sign-flip test over tasks holds its level.
 */
t.test('on a clustered pass/fail null the sign-flip test holds 5% and the sign test over pairs over-rejects', async t => {
	const rng = xoroshiro128plus(28);
	const random = (): number => uniformFloat64(rng);
	const experiments = 2000;
	let byTask = 0;
	let byPair = 0;
	for (let experiment = 0; experiment < experiments; experiment += 1) {
		const nets: number[] = [];
		let up = 0;
		let down = 0;
		for (let task = 0; task < 20; task += 1) {
			// One side is much better on this task (for all its trials); which side is a coin flip, so neither is better overall.
			const rate = random();
			const leaning = random() < 0.5 ? 1 : -1;
			let net = 0;
			for (let trial = 0; trial < 5; trial += 1) {
				const favoured = random() < rate;
				const other = random() < 0.25 * rate;
				const candidate = leaning === 1 ? favoured : other;
				const baseline = leaning === 1 ? other : favoured;
				if (candidate && !baseline) [up, net] = [up + 1, net + 1];
				if (baseline && !candidate) [down, net] = [down + 1, net - 1];
			}
			nets.push(net);
		}
		if (taskSignFlipTest(nets) <= 0.05) byTask += 1;
		if (exactSignTest(up, down) <= 0.05) byPair += 1;
	}
	t.ok(byTask / experiments >= 0.03 && byTask / experiments <= 0.07, `the sign-flip test over tasks rejects ${(100 * byTask / experiments).toFixed(1)}%`);
	t.ok(byPair / experiments > 0.15, `the sign test over pairs rejects ${(100 * byPair / experiments).toFixed(1)}%`);
});
