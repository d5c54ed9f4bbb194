import t, {type Test} from 'tap';
import {exactSignTest, pairedStatistics} from '../../../supervisor/compare/statistics.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';

interface Trial {
	passed: boolean;
	turns?: number;
	tokens?: number | null;
	wall?: number;
}

function entry(index: number, id: string, trial: Trial): TaskResult {
	return {
		index, task_id: id, status: trial.passed ? 'passed' : 'failed', reason: trial.passed ? null : 'unfinished', message: null,
		grade: {passed: trial.passed, score: null, details: ''}, outcome: null,
		usage: {turns: trial.turns ?? 5, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: trial.tokens === undefined ? 500 : trial.tokens, cost_usd: null},
		wall_ms: trial.wall ?? 100, evidence: {},
	};
}

/** A side of `tasks` × `trials` entries, round by round as `--repeat` freezes them; `trial(task, k)` says how each went. */
function side(label: 'baseline' | 'candidate', tasks: string[], trials: number, trial: (task: number, k: number) => Trial): Report {
	const results: TaskResult[] = [];
	for (let k = 1; k <= trials; k += 1) {
		tasks.forEach((id, task) => results.push(entry(results.length, `${id}#${k}`, trial(task, k))));
	}
	return {
		schema: 'harness-lab/report@1', attempt_id: label, side: label, timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan_digest: 'sha256:x', completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: results.map(item => item.task_id), tasks: results,
		totals: totalsOf(results), passed: results.every(item => item.status === 'passed'), problems: [], started_at: '', ended_at: '', attempt_wall_ms: 1,
	};
}

const tasks = ['a', 'b', 'c', 'd', 'e'];

/** The tail is summed in log space: equal to the exact fraction up to rounding. */
function close(t: Test, actual: number, expected: number): void {
	t.ok(Math.abs(actual - expected) <= 1e-12 * expected, `${actual} is ${expected}`);
}

t.test('the exact sign test matches the binomial tail computed by hand', async t => {
	t.equal(exactSignTest(0, 0), 1, 'no discordant pair: nothing to tell the sides apart');
	t.equal(exactSignTest(1, 0), 1, 'one discordant pair: 2 * 1/2, capped at 1');
	close(t, exactSignTest(5, 0), 2 / 32);
	close(t, exactSignTest(8, 2), 2 * (1 + 10 + 45) / 1024);
	t.equal(exactSignTest(2, 8), exactSignTest(8, 2), 'two-sided: symmetric');
	t.ok(exactSignTest(3000, 2900) > 0 && exactSignTest(3000, 2900) < 1, 'large counts neither underflow nor overflow');
});

t.test('a candidate that wins by one trial on one task is not significant at 0.95', async t => {
	const baseline = side('baseline', tasks, 5, () => ({passed: true}));
	const candidate = side('candidate', tasks, 5, () => ({passed: true}));
	baseline.tasks[0] = entry(0, 'a#1', {passed: false});
	const stats = pairedStatistics(baseline, candidate);
	t.equal(stats.pass_fail.pairs, 25);
	t.equal(stats.pass_fail.candidate_only, 1);
	t.equal(stats.pass_fail.baseline_only, 0);
	t.equal(stats.pass_fail.favours, 'candidate');
	t.equal(stats.pass_fail.p_value, 1);
	t.equal(stats.pass_fail.significant, false);
	t.same(stats.tasks.find(row => row.task === 'a'), {task: 'a', trials: 5, baseline_passed: 4, candidate_passed: 5, baseline_rate: 0.8, candidate_rate: 1});
});

t.test('with repeats the pass/fail p-value flips whole tasks: 16 winning pairs over 4 tasks are 4 pieces of evidence, not 16', async t => {
	const baseline = side('baseline', tasks, 5, () => ({passed: false}));
	// The candidate passes four of five trials on four of five tasks.
	const candidate = side('candidate', tasks, 5, (task, k) => ({passed: task < 4 && k < 5}));
	const stats = pairedStatistics(baseline, candidate);
	t.equal(stats.pass_fail.candidate_only, 16);
	t.equal(stats.pass_fail.baseline_only, 0);
	t.equal(stats.pass_fail.clustered, true);
	// Of the 16 sign assignments of four tasks' nets of 4, two reach |16|: p = 1/8 (the sign test over pairs said 2/2^16).
	t.equal(stats.pass_fail.p_value, 2 / 16);
	t.equal(stats.pass_fail.significant, false);
	t.same(stats.tasks.map(row => row.candidate_rate), [0.8, 0.8, 0.8, 0.8, 0]);

	const eight = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
	const wider = pairedStatistics(side('baseline', eight, 5, () => ({passed: false})), side('candidate', eight, 5, (task, k) => ({passed: task < 7 && k < 5})));
	close(t, wider.pass_fail.p_value, 2 / 2 ** 7);
	t.equal(wider.pass_fail.significant, true, 'seven tasks won of eight');
	const strict = pairedStatistics(side('baseline', eight, 5, () => ({passed: false})), side('candidate', eight, 5, (task, k) => ({passed: task < 7 && k < 5})), {confidence: 0.99});
	t.equal(strict.pass_fail.significant, false, 'the same evidence is not enough at a stricter level');
});

t.test('one trial per task: the sign test over pairs, exactly as before', async t => {
	const eight = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
	const stats = pairedStatistics(side('baseline', eight, 1, () => ({passed: false})), side('candidate', eight, 1, task => ({passed: task < 7})));
	t.equal(stats.pass_fail.clustered, false);
	t.equal(stats.pass_fail.p_value, exactSignTest(7, 0));
});

t.test('the bootstrap is reproducible for a seed, differs across seeds, and brackets the mean difference', async t => {
	const baseline = side('baseline', tasks, 4, (task, k) => ({passed: true, turns: 8 + ((task + k) % 3), tokens: 1000 + 37 * task + 11 * k, wall: 200 + 13 * k}));
	const candidate = side('candidate', tasks, 4, (task, k) => ({passed: true, turns: 6 + ((task * k) % 4), tokens: 900 + 29 * task + 17 * k, wall: 210 + 7 * task}));
	const first = pairedStatistics(baseline, candidate, {seed: 42, resamples: 2000});
	const again = pairedStatistics(baseline, candidate, {seed: 42, resamples: 2000});
	const other = pairedStatistics(baseline, candidate, {seed: 43, resamples: 2000});
	t.same(first.differences, again.differences, 'same seed, same intervals');
	t.not(JSON.stringify(first.differences), JSON.stringify(other.differences), 'another seed resamples differently');
	for (const interval of first.differences) {
		t.equal(interval.pairs, 20, `${interval.metric}: every pair known`);
		t.ok(interval.low! <= interval.mean_difference! && interval.mean_difference! <= interval.high!, `${interval.metric}: ${interval.low} <= ${interval.mean_difference} <= ${interval.high}`);
		t.ok(interval.low! < interval.high!, `${interval.metric}: varied differences give an interval of some width`);
	}
	const turns = first.differences.find(interval => interval.metric === 'turns')!;
	t.ok(turns.high! < 0, 'the candidate takes clearly fewer turns: the whole interval is below zero');
});

t.test('unknown usage is left out of the pairs and counted; nothing known gives nulls, never 0', async t => {
	const baseline = side('baseline', tasks, 2, task => ({passed: true, tokens: task === 0 ? null : 700}));
	const candidate = side('candidate', tasks, 2, () => ({passed: true, tokens: 600}));
	const tokens = pairedStatistics(baseline, candidate).differences.find(interval => interval.metric === 'total_tokens')!;
	t.equal(tokens.pairs, 8);
	t.equal(tokens.left_out, 2);
	t.equal(tokens.mean_difference, -100);

	const unknown = side('candidate', tasks, 2, () => ({passed: true, tokens: null}));
	const none = pairedStatistics(baseline, unknown).differences.find(interval => interval.metric === 'total_tokens')!;
	t.same(none, {metric: 'total_tokens', pairs: 0, left_out: 10, mean_difference: null, low: null, high: null, tasks: 0, clustered: null, cluster_se: null, between_task: null, within_task: null, p_value: null, margin: null, margin_p_value: null});
});
