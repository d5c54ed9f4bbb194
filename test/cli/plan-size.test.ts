import t from 'tap';
import {uniformFloat64} from 'pure-rand/distribution/uniformFloat64';
import {xoroshiro128plus} from 'pure-rand/generator/xoroshiro128plus';
import {taskSignFlipTest} from '../../supervisor/statistics/task-sign-flip.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

const tasks = 10;
const effect = 0.15;
const baselineRate = 0.5;
const experiments = 2000;

/** How often the decision's test (with repeats: the sign-flip test over tasks) finds the candidate better, by simulation. */
function simulatedPower(trials: number, random: () => number): number {
	let found = 0;
	for (let experiment = 0; experiment < experiments; experiment += 1) {
		const nets: number[] = [];
		for (let task = 0; task < tasks; task += 1) {
			let net = 0;
			for (let trial = 0; trial < trials; trial += 1) {
				const b = random() < baselineRate;
				const c = random() < baselineRate + effect;
				if (c && !b) net += 1;
				if (b && !c) net -= 1;
			}
			nets.push(net);
		}
		if (nets.reduce((sum, net) => sum + net, 0) > 0 && taskSignFlipTest(nets) <= 0.05) found += 1;
	}
	return found / experiments;
}

t.test('hlab plan size --effect 0.15 agrees with a simulation within 10% on trials per task', async t => {
	const run = await hlab(['plan', 'size', '--effect', String(effect), '--tasks', String(tasks), '--json']);
	t.equal(run.record.exit_code, 0, run.stderr);
	const answer = JSON.parse(run.stdout) as {trials_per_task: number; pairs: number};
	t.equal(answer.pairs, answer.trials_per_task * tasks);
	const rng = xoroshiro128plus(28);
	const random = (): number => uniformFloat64(rng);
	// The simulated answer: the fewest trials per task whose simulated power reaches 80%, searched around the answer.
	let simulated: number | null = null;
	const low = Math.floor(answer.trials_per_task * 0.8);
	for (let trials = low; trials <= Math.ceil(answer.trials_per_task * 1.2) && simulated === null; trials += 1) {
		if (simulatedPower(trials, random) >= 0.8) simulated = trials;
	}
	t.ok(simulated !== null && simulated > low, `the simulation reaches 80% at ${simulated} trials per task, not already at the search's start`);
	t.ok(Math.abs(simulated! - answer.trials_per_task) <= 0.1 * answer.trials_per_task, `plan size says ${answer.trials_per_task}, the simulation ${simulated}`);
});

t.test('plan size: bad input is one line and exit 2', async t => {
	for (const [args, message] of [
		[['--effect', '0.15'], /^hlab: give --tasks N or --plan plan\.json, one of them$/],
		[['--effect', '1.5', '--tasks', '4'], /^hlab: --effect must be a number between 0 and 1, got '1\.5'$/],
		[['--effect', '0.6', '--tasks', '4'], /^hlab: --baseline-rate 0\.5 plus --effect 0\.6 is past a pass rate of 1$/],
	] as const) {
		const run = await hlab(['plan', 'size', ...args]);
		t.equal(run.record.exit_code, 2);
		t.match(run.stderr.trim(), message);
	}
});
