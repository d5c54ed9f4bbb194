import t from 'tap';
import {uniformFloat64} from 'pure-rand/distribution/uniformFloat64';
import {xoroshiro128plus} from 'pure-rand/generator/xoroshiro128plus';
import {clusterBootstrap} from '../../../supervisor/statistics/cluster-bootstrap.js';
import {clustersOf} from '../../../supervisor/statistics/clusters.js';

const tasks = 20;
const trials = 5;
const experiments = 2000;
const resamples = 400;
// A task's own effect (sd 1) and a trial's noise around it (sd 0.6): within-task correlation 1 / (1 + 0.36) = 0.735.
const taskSd = 1;
const trialSd = 0.6;

type Random = () => number;

function gaussian(random: Random): number {
	// Box–Muller; 1 − u keeps the logarithm finite.
	return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** One experiment under the null: paired differences with no true effect, correlated within each task. */
function clusteredNull(random: Random): number[][] {
	return Array.from({length: tasks}, () => {
		const effect = taskSd * gaussian(random);
		return Array.from({length: trials}, () => effect + trialSd * gaussian(random));
	});
}

t.test('on a clustered null, the task bootstrap rejects at 5% and the entry bootstrap over-rejects', async t => {
	const rng = xoroshiro128plus(28);
	const random: Random = () => uniformFloat64(rng);
	let clusterRejects = 0;
	let entryRejects = 0;
	const started = performance.now();
	for (let experiment = 0; experiment < experiments; experiment += 1) {
		const groups = clusteredNull(random);
		const byTask = clusterBootstrap(clustersOf(groups), 0.95, experiment + 1, resamples, true);
		const byEntry = clusterBootstrap(clustersOf(groups.flat().map(value => [value])), 0.95, experiment + 1, resamples);
		if (byTask.low > 0 || byTask.high < 0) clusterRejects += 1;
		if (byEntry.low > 0 || byEntry.high < 0) entryRejects += 1;
	}
	const seconds = (performance.now() - started) / 1000;
	const clusterRate = clusterRejects / experiments;
	const entryRate = entryRejects / experiments;
	t.ok(clusterRate >= 0.03 && clusterRate <= 0.07, `the task bootstrap rejects ${(clusterRate * 100).toFixed(1)}% (target 5% ± 2%)`);
	t.ok(entryRate > 0.15, `the entry bootstrap rejects ${(entryRate * 100).toFixed(1)}%, counting correlated repeats as independent`);
	t.ok(seconds < 20, `${experiments} experiments in ${seconds.toFixed(1)} s`);
});
