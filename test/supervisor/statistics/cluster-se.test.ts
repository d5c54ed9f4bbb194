import t from 'tap';
import {clusterBootstrap} from '../../../supervisor/statistics/cluster-bootstrap.js';
import {clusterRobustSE} from '../../../supervisor/statistics/cluster-robust-se.js';
import {clusteredMean, clustersOf} from '../../../supervisor/statistics/clusters.js';
import {varianceDecomposition} from '../../../supervisor/statistics/variance-decomposition.js';

const near = (actual: number | null, expected: number, tolerance = 1e-12): boolean => actual !== null && Math.abs(actual - expected) <= tolerance;

t.test('with equal trials per task, the cluster-robust SE is the standard error of the task means', async t => {
	const groups = [[1, 3], [2, 2], [-4, 0], [5, 7]];
	const means = [2, 2, -2, 6];
	const grand = 2;
	const sd = Math.sqrt(means.reduce((sum, value) => sum + (value - grand) ** 2, 0) / 3);
	const clusters = clustersOf(groups);
	t.ok(near(clusteredMean(clusters), grand));
	t.ok(near(clusterRobustSE(clusters), sd / 2), `${clusterRobustSE(clusters)} is ${sd / 2}`);
});

t.test('unequal tasks: CR1 by hand', async t => {
	// Sums 6 (3 trials), −1 (1 trial), 3 (2 trials); mean 8/6; residual sums 2, −7/3, 1/3.
	const clusters = clustersOf([[1, 2, 3], [-1], [0, 3], []]);
	const squares = 2 ** 2 + (7 / 3) ** 2 + (1 / 3) ** 2;
	t.ok(near(clusterRobustSE(clusters), Math.sqrt((3 / 2) * squares) / 6));
	t.equal(clusterRobustSE(clustersOf([[1, 2]])), null, 'one task: not defined');
});

t.test('the variance decomposition separates task effects from trial noise', async t => {
	// Task means 0 and 10, each trial ±1 around them: within 4 / (4 − 2) = 2; between 50 less 2 / 2 trials per task.
	const spread = varianceDecomposition(clustersOf([[-1, 1], [9, 11]]));
	t.ok(near(spread.within_task, 2));
	t.ok(near(spread.between_task, 50 - 2 / 2));
	t.strictSame(varianceDecomposition(clustersOf([[1], [2]])).within_task, null, 'no repeat: nothing within');
});

t.test('one entry per task: the cluster bootstrap is the entry bootstrap, draw for draw', async t => {
	const values = [3, -1, 4, 1, -5, 9, 2, 6];
	const asTasks = clusterBootstrap(clustersOf(values.map(value => [value])), 0.95, 1, 2000);
	const again = clusterBootstrap(clustersOf(values.map(value => [value])), 0.95, 1, 2000);
	t.strictSame(asTasks, again, 'seeded: the same interval twice');
	t.ok(asTasks.low < 2.375 && asTasks.high > 2.375, 'the interval holds the mean');
	const wider = clusterBootstrap(clustersOf(values.map(value => [value])), 0.95, 1, 2000, true);
	t.ok(wider.low <= asTasks.low && wider.high >= asTasks.high, 'expanded for few tasks: never narrower');
});

t.test('the bootstrap p-value agrees with the interval at every level', async t => {
	const {clusterBootstrapPValue} = await import('../../../supervisor/statistics/cluster-bootstrap.js');
	const groups = [[-2, -1], [-1, 0], [-3, -2], [0, 1], [-1, -1], [-2, 0]];
	for (const expanded of [false, true]) {
		const clusters = clustersOf(groups);
		const p = clusterBootstrapPValue(clusters, 7, 4000, expanded);
		t.ok(p > 0 && p < 1, `p = ${p}`);
		for (const confidence of [0.8, 0.9, 0.95, 0.99]) {
			const interval = clusterBootstrap(clusters, confidence, 7, 4000, expanded);
			const excludes = interval.high < 0 || interval.low > 0;
			t.equal(p <= 1 - confidence + 1e-9, excludes, `${expanded ? 'expanded' : 'plain'} at ${confidence}: p ${p}, interval [${interval.low}, ${interval.high}]`);
		}
	}
	t.equal(clusterBootstrapPValue(clustersOf([[1, -1], [2, -2]]), 1, 1000), 1, 'a zero mean difference: p = 1');
	t.equal(clusterBootstrapPValue(clustersOf([[-1], [-1], [-2]]), 1, 1000), 1 / 1000, 'every resample below zero: the floor, never 0');
});
