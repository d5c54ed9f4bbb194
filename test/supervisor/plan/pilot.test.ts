import t from 'tap';
import {uniformFloat64} from 'pure-rand/distribution/uniformFloat64';
import {xoroshiro128plus} from 'pure-rand/generator/xoroshiro128plus';
import {pilotDetectable, pilotOf} from '../../../supervisor/plan/pilot.js';
import {planPower} from '../../../supervisor/plan/plan-power.js';
import {AcceptancePolicy} from '../../../supervisor/plan/experiment-policy.js';
import {clusterBootstrap} from '../../../supervisor/statistics/cluster-bootstrap.js';
import {clustersOf} from '../../../supervisor/statistics/clusters.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';

function pilotReport(tasks: number, trials: number, turnsOf: (task: number, k: number) => number, passed = (_task: number, _k: number) => true): Report {
	const results: TaskResult[] = [];
	for (let k = 1; k <= trials; k += 1) {
		for (let task = 0; task < tasks; task += 1) {
			const turns = turnsOf(task, k);
			const pass = passed(task, k);
			results.push({
				index: results.length, task_id: trials === 1 ? `t${task}` : `t${task}#${k}`, status: pass ? 'passed' : 'failed', reason: pass ? null : 'unfinished', message: null,
				grade: {passed: pass, score: null, details: ''}, outcome: null,
				usage: {turns, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: null, cost_usd: null}, wall_ms: 100 * turns, evidence: {},
			});
		}
	}
	return {
		schema: 'harness-lab/report@1', attempt_id: 'pilot', side: 'baseline', timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan_digest: 'sha256:x', completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: results.map(item => item.task_id), tasks: results,
		totals: totalsOf(results), passed: false, problems: [], started_at: '', ended_at: '', attempt_wall_ms: 1,
	};
}

t.test('a pilot\'s spread by hand: within a task, between tasks, and the difference it lets a plan show', async t => {
	// Four tasks at 5, 7, 9, 11 turns, each trial one turn either side of it: 4, 6 and back; within-task variance 1.
	const report = pilotReport(4, 3, (task, k) => 5 + 2 * task + (k === 1 ? -1 : k === 2 ? 1 : 0), (task, k) => task > 0 || k === 1);
	const pilot = pilotOf('pilot.json', report.tasks);
	t.equal(pilot.tasks, 4);
	t.equal(pilot.entries, 12);
	t.equal(pilot.pass_rate, 10 / 12);
	const turns = pilot.spreads.find(item => item.statistic === 'turns')!;
	t.equal(turns.within_task, 1);
	// Task means 5, 7, 9, 11: variance 20/3, less within/trials = 1/3.
	t.ok(Math.abs(turns.between_task! - (20 / 3 - 1 / 3)) < 1e-12);
	t.equal(turns.mean, 8);
	t.same(pilot.spreads.find(item => item.statistic === 'total_tokens'), {statistic: 'total_tokens', known: 0, mean: null, between_task: null, within_task: null}, 'unknown tokens stay unknown');

	// Over 4 tasks × 3 trials a paired difference varies 2 × 1: (t(.975, 3) + t(.8, 3)) · √(2 / 12) = (3.182446 + 0.978472) · 0.408248.
	const [detectTurns, detectTokens, detectWall] = pilotDetectable(pilot, 4, 3, 0.95, 0.8);
	t.ok(Math.abs(detectTurns!.detectable_difference! - 4.160918 * Math.sqrt(2 / 12)) < 1e-3, `turns ${detectTurns!.detectable_difference}`);
	t.equal(detectTurns!.at_most, false);
	t.ok(Math.abs(detectTurns!.relative! - detectTurns!.detectable_difference! / 8) < 1e-3);
	t.equal(detectTokens!.detectable_difference, null);
	t.ok(Math.abs(detectWall!.detectable_difference! - 100 * detectTurns!.detectable_difference!) < 0.1, 'wall time is 100 ms a turn here');

	const power = planPower(AcceptancePolicy.parse({improvement: 'turns', min_confidence: 0.95}), 4, 3, pilot)!;
	t.equal(power.baseline_rate, 10 / 12, 'the pilot\'s pass rate, not one half');
	t.same(power.pilot?.detectable.map(item => item.statistic), ['turns', 'total_tokens', 'wall_ms']);
});

t.test('a pilot without repeats: its whole spread stands for the within-task one, and the difference is an upper bound', async t => {
	const pilot = pilotOf('pilot.json', pilotReport(5, 1, task => 4 + task).tasks);
	const turns = pilot.spreads.find(item => item.statistic === 'turns')!;
	t.equal(turns.within_task, null);
	t.equal(turns.between_task, 2.5, 'the variance of 4..8');
	const [detect] = pilotDetectable(pilot, 5, 4, 0.95, 0.8);
	t.equal(detect!.at_most, true);
});

t.test('at the detectable difference the decision\'s task-clustered interval finds the saving about 80% of the time', async t => {
	const tasks = 10;
	const trials = 3;
	const within = 4;
	const pilot = pilotOf('pilot.json', pilotReport(tasks, trials, () => 10).tasks);
	pilot.spreads = [{statistic: 'turns', known: tasks * trials, mean: 10, between_task: 0, within_task: within}];
	const effect = pilotDetectable(pilot, tasks, trials, 0.95, 0.8)[0]!.detectable_difference!;
	const rng = xoroshiro128plus(28);
	const random = (): number => uniformFloat64(rng);
	const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
	const experiments = 1000;
	let found = 0;
	for (let experiment = 0; experiment < experiments; experiment += 1) {
		// Each side's trial varies with the pilot's within-task variance; the task's own level cancels in the pair.
		const groups = Array.from({length: tasks}, () => Array.from({length: trials}, () => -effect + Math.sqrt(within) * (gaussian() - gaussian())));
		if (clusterBootstrap(clustersOf(groups), 0.95, experiment + 1, 400, true).high < 0) found += 1;
	}
	const power = found / experiments;
	t.ok(power >= 0.7 && power <= 0.9, `a saving of ${effect} per trial found in ${(power * 100).toFixed(1)}% (target 80% ± 10)`);
});
