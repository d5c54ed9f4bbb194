import t from 'tap';
import {applyAcceptance} from '../../../supervisor/compare/acceptance.js';
import {AcceptancePolicy} from '../../../supervisor/plan/experiment-policy.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';
import {signTestPower} from '../../../supervisor/statistics/sign-test-power.js';

function entry(index: number, id: string, passed: boolean, turns: number): TaskResult {
	return {
		index, task_id: id, status: passed ? 'passed' : 'failed', reason: passed ? null : 'unfinished', message: null,
		grade: {passed, score: null, details: ''}, outcome: null,
		usage: {turns, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: 100 * turns, cost_usd: null},
		wall_ms: 100, evidence: {},
	};
}

/** `tasks` × `trials` entries, round by round as `--repeat` freezes them. */
function side(label: 'baseline' | 'candidate', tasks: number, trials: number, trial: (task: number, k: number) => {passed: boolean; turns: number}): Report {
	const results: TaskResult[] = [];
	for (let k = 1; k <= trials; k += 1) {
		for (let task = 0; task < tasks; task += 1) {
			const {passed, turns} = trial(task, k);
			results.push(entry(results.length, `t${task}#${k}`, passed, turns));
		}
	}
	return {
		schema: 'harness-lab/report@1', attempt_id: label, side: label, timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan_digest: 'sha256:x', completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: results.map(item => item.task_id), tasks: results,
		totals: totalsOf(results), passed: results.every(item => item.status === 'passed'), problems: [], started_at: '', ended_at: '', attempt_wall_ms: 1,
	};
}

const quality = AcceptancePolicy.parse({improvement: 'quality', require_all_pass: false, min_confidence: 0.95});

t.test('ahead on every discordant pair but too few of them: insufficient, with the trials that would show it', async t => {
	const base = side('baseline', 4, 2, () => ({passed: false, turns: 5}));
	// Four discordant pairs, all the candidate's: p = 0.125.
	const cand = side('candidate', 4, 2, (_, k) => ({passed: k === 1, turns: 5}));
	const result = applyAcceptance(quality, base, cand);
	t.equal(result.accepted, false);
	const advice = result.insufficient!;
	t.equal(advice.statistic, 'pass_fail');
	t.equal(advice.trials_per_task, 2);
	t.ok(advice.needed_trials_per_task! > 2, `${advice.needed_trials_per_task} trials per task`);
	t.equal(advice.more_trials_per_task, advice.needed_trials_per_task! - 2);
	// The advice is the power it claims: at the observed discordance (half the pairs, all the candidate's), 80% there and not one trial before.
	const observed = {candidate_only: 0.5, baseline_only: 0};
	t.ok(signTestPower(4 * advice.needed_trials_per_task!, observed, 0.95) >= 0.8);
	t.ok(signTestPower(4 * (advice.needed_trials_per_task! - 1), observed, 0.95) < 0.8);
	t.match(result.checks.find(check => check.rule === 'improvement')?.message, /passes: the candidate is ahead but not significantly: \d+ trials per task \(\d+ more than 2\) over the same 4 tasks would give 80% power/);
});

t.test('a candidate that is worse, or no different, is not insufficient: it is rejected', async t => {
	const base = side('baseline', 4, 2, (_, k) => ({passed: k === 1, turns: 5}));
	const worse = side('candidate', 4, 2, () => ({passed: false, turns: 5}));
	t.equal(applyAcceptance(quality, base, worse).insufficient, null, 'behind on every discordant pair');
	t.equal(applyAcceptance(quality, base, base).insufficient, null, 'no discordant pair');
});

t.test('fewer turns whose interval still reaches zero: insufficient, by the within-task spread', async t => {
	const base = side('baseline', 3, 2, () => ({passed: true, turns: 6}));
	// One task of three a turn shorter in each trial, the others unchanged.
	const cand = side('candidate', 3, 2, task => ({passed: true, turns: task === 0 ? 5 : 6}));
	const result = applyAcceptance(AcceptancePolicy.parse({improvement: 'turns', min_confidence: 0.95}), base, cand);
	t.equal(result.accepted, false);
	t.equal(result.insufficient?.statistic, 'turns');
	// No spread within a task: trials add nothing; the tasks differ, so only more tasks would show it.
	t.equal(result.insufficient?.more_trials_per_task, null);
	t.match(result.insufficient?.message, /add tasks/);
});

t.test('a significant gain is no advice; a failed gate is not helped by the advice', async t => {
	const base = side('baseline', 4, 5, () => ({passed: false, turns: 5}));
	const broad = side('candidate', 4, 5, (task, k) => ({passed: task < 3 && k > 1, turns: 5}));
	t.equal(applyAcceptance(quality, base, broad).accepted, true);
	t.equal(applyAcceptance(quality, base, broad).insufficient, null);
});
