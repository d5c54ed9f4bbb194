import t from 'tap';
import {applyAcceptance} from '../../../supervisor/compare/acceptance.js';
import {AcceptancePolicy} from '../../../supervisor/plan/experiment-policy.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';
import {passFailPower} from '../../../supervisor/statistics/sign-test-power.js';
import {trialsForMeanPower} from '../../../supervisor/statistics/mean-difference-power.js';
import {pairedStatistics} from '../../../supervisor/compare/statistics.js';

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
	const base = side('baseline', 8, 2, () => ({passed: false, turns: 5}));
	// Five tasks of eight won once each: the sign-flip test over tasks gives p = 2/32.
	const cand = side('candidate', 8, 2, (task, k) => ({passed: task < 5 && k === 1, turns: 5}));
	const result = applyAcceptance(quality, base, cand);
	t.equal(result.accepted, false);
	const advice = result.insufficient!;
	t.equal(advice.statistic, 'pass_fail');
	t.equal(advice.trials_per_task, 2);
	t.ok(advice.needed_trials_per_task! > 2, `${advice.needed_trials_per_task} trials per task`);
	t.equal(advice.more_trials_per_task, advice.needed_trials_per_task! - 2);
	// The advice is the power it claims: at the observed discordance (5 of 16 pairs, all the candidate's), 80% there and not one trial before.
	const observed = {candidate_only: 5 / 16, baseline_only: 0};
	t.ok(passFailPower(8, advice.needed_trials_per_task!, observed, 0.95) >= 0.8);
	t.ok(passFailPower(8, advice.needed_trials_per_task! - 1, observed, 0.95) < 0.8);
	t.match(result.checks.find(check => check.rule === 'improvement')?.message, /passes: the candidate is ahead but not significantly: \d+ trials per task \(\d+ more than 2\) over the same 8 tasks would give 80% power/);
});

t.test('ahead on every task of too few tasks: more trials never help, add tasks', async t => {
	const base = side('baseline', 4, 2, () => ({passed: false, turns: 5}));
	const cand = side('candidate', 4, 2, (_, k) => ({passed: k === 1, turns: 5}));
	const result = applyAcceptance(quality, base, cand);
	t.equal(result.insufficient?.more_trials_per_task, null);
	t.match(result.insufficient?.message, /more trials of these 4 tasks would not give 80% power .*: add tasks/);
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
	const base = side('baseline', 7, 5, () => ({passed: false, turns: 5}));
	// Six tasks of seven won on four trials each: p = 2/64.
	const broad = side('candidate', 7, 5, (task, k) => ({passed: task < 6 && k > 1, turns: 5}));
	t.equal(applyAcceptance(quality, base, broad).accepted, true);
	t.equal(applyAcceptance(quality, base, broad).insufficient, null);
});

t.test('an interval against zero and the margin: beyond it accepts, short of it with the mean beyond is insufficient, the mean within it rejects', async t => {
	const base = side('baseline', 8, 2, () => ({passed: true, turns: 10}));
	// Savings of 1 on four tasks and 3 on the other four, one more on the second trial: mean 2.5, every difference below zero.
	const cand = side('candidate', 8, 2, (task, k) => ({passed: true, turns: 10 - (task < 4 ? 1 : 3) - (k === 2 ? 1 : 0)}));
	const turns = (margin: number | null) => applyAcceptance(AcceptancePolicy.parse({improvement: 'turns', min_confidence: 0.95, ...(margin === null ? {} : {min_effect: {turns: {absolute: margin}}})}), base, cand);
	const message = (result: ReturnType<typeof turns>) => result.checks.find(check => check.rule === 'improvement')!.message;

	t.equal(turns(null).accepted, true, 'no margin: the interval is below zero');
	t.equal(turns(1).accepted, true, 'a margin of 1: the interval is below −1 too');

	// A margin of 2: the interval is wholly below zero but reaches past −2, and the mean (−2.5) is beyond −2.
	const short = turns(2);
	t.equal(short.accepted, false, message(short));
	t.match(message(short), /\[-3\.\d\d, -1\.\d\d\]/, 'the interval excludes zero, and not the margin');
	t.equal(short.insufficient?.statistic, 'turns', 'insufficient, not reject: the saving beyond the margin is not yet significant');
	// The advice sizes the saving beyond the margin (0.5), not the whole saving (2.5): by the within and between split
	// of the differences, 0.5 over 8 tasks that differ this much needs more tasks, where 2.5 would have needed no trial more.
	const interval = pairedStatistics(base, cand, {confidence: 0.95}).differences.find(item => item.metric === 'turns')!;
	const spread = {between_task: interval.between_task, within_task: interval.within_task};
	t.equal(short.insufficient!.needed_trials_per_task, trialsForMeanPower(0.5, 8, spread, 0.95, 0.8));
	t.equal(short.insufficient!.needed_trials_per_task, null);
	t.match(short.insufficient!.message, /add tasks/);
	t.ok(trialsForMeanPower(2.5, 8, spread, 0.95, 0.8) !== null, 'the whole saving would have been called powered');

	// A margin of 3: the mean saving (2.5) is within it; more trials would only narrow the interval around −2.5.
	const within = turns(3);
	t.equal(within.accepted, false);
	t.equal(within.insufficient, null, message(within));
});
