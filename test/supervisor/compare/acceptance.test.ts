import t from 'tap';
import {applyAcceptance} from '../../../supervisor/compare/acceptance.js';
import {AcceptancePolicy} from '../../../supervisor/plan/experiment-policy.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/totals.js';

function task(index: number, passed: boolean, turns: number, tokens: number | null, wall: number, score: number | null = null): TaskResult {
	return {
		index, task_id: `t${index}`, status: passed ? 'passed' : 'failed', reason: null, message: passed ? null : 'grader said no',
		grade: {passed, score, details: ''}, outcome: null,
		usage: {turns, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: tokens, cost_usd: null},
		wall_ms: wall, evidence: {},
	};
}

function report(side: 'baseline' | 'candidate', tasks: TaskResult[]): Report {
	return {
		schema: 'harness-lab/report@1', attempt_id: side, side, timing: 'in-process', host: null, plan_digest: 'sha256:x', completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: tasks.map(item => item.task_id), tasks,
		totals: totalsOf(tasks), passed: true, problems: [], started_at: '', ended_at: '', attempt_wall_ms: 1,
	};
}

const policy = (fields: object = {}) => AcceptancePolicy.parse(fields);

t.test('fewer tokens with every task passed and duration within the ratio is accepted', async t => {
	const result = applyAcceptance(policy({improvement: 'tokens'}), report('baseline', [task(0, true, 4, 400, 100)]), report('candidate', [task(0, true, 3, 300, 110)]));
	t.equal(result.accepted, true);
	t.match(result.checks.find(check => check.rule === 'improvement')?.message, /300 < baseline 400/);
});

t.test('a failed candidate task rejects under require_all_pass and names the task', async t => {
	const result = applyAcceptance(policy(), report('baseline', [task(0, true, 4, 400, 100), task(1, true, 4, 400, 100)]), report('candidate', [task(0, true, 2, 200, 50), task(1, false, 2, 200, 50)]));
	t.equal(result.accepted, false);
	t.ok(result.checks.some(check => check.rule === 'require_all_pass' && !check.satisfied && check.message.includes('candidate failed task t1')));
});

t.test('unknown usage never shows an improvement', async t => {
	const result = applyAcceptance(policy({improvement: 'tokens'}), report('baseline', [task(0, true, 4, 400, 100)]), report('candidate', [task(0, true, 3, null, 100)]));
	t.equal(result.accepted, false);
	t.match(result.checks.find(check => check.rule === 'improvement')?.message, /unknown on the candidate/);
});

t.test('a slower candidate beyond the ratio is rejected even when it is cheaper', async t => {
	const result = applyAcceptance(policy({max_duration_ratio: 1.25}), report('baseline', [task(0, true, 4, 400, 100)]), report('candidate', [task(0, true, 2, 200, 130)]));
	t.equal(result.accepted, false);
	t.equal(result.duration_ratio, 1.3);
});

t.test('turns-or-tokens accepts fewer turns alone; turns rejects equal turns', async t => {
	const base = report('baseline', [task(0, true, 4, 400, 100)]);
	t.equal(applyAcceptance(policy({improvement: 'turns-or-tokens'}), base, report('candidate', [task(0, true, 3, 500, 100)])).accepted, true);
	t.equal(applyAcceptance(policy({improvement: 'turns'}), base, report('candidate', [task(0, true, 4, 100, 100)])).accepted, false);
});

t.test('quality needs more passes or a higher known score; non-regression needs no improvement', async t => {
	const base = report('baseline', [task(0, true, 4, 400, 100, 0.5), task(1, false, 4, 400, 100, 0)]);
	const better = report('candidate', [task(0, true, 4, 400, 100, 0.5), task(1, true, 4, 400, 100, 1)]);
	t.equal(applyAcceptance(policy({improvement: 'quality', require_all_pass: false}), base, better).accepted, true);
	t.equal(applyAcceptance(policy({improvement: 'non-regression', require_all_pass: false}), base, base).accepted, true);
	const regressed = report('candidate', [task(0, false, 1, 10, 10, 0), task(1, true, 1, 10, 10, 1)]);
	t.equal(applyAcceptance(policy({improvement: 'non-regression', require_all_pass: false}), base, regressed).accepted, false);
});

t.test('supervised wall times replace the reports\' own timings in the duration rule', async t => {
	const base = report('baseline', [task(0, true, 4, 400, 100)]);
	// The candidate's report claims a fast run; the supervisor's process records say it was slow.
	const fast = report('candidate', [task(0, true, 2, 200, 10)]);
	const result = applyAcceptance(policy({improvement: 'tokens'}), base, fast, {baseline: 1000, candidate: 2000, source: 'supervised host wall time (process.json)'});
	t.equal(result.duration_ratio, 2);
	t.equal(result.accepted, false);
	t.match(result.checks.find(check => check.rule === 'max_duration_ratio')?.message, /process\.json.*2000 ms is 2\.00x the baseline's 1000 ms/);
});

t.test('a supervised side with a task that never launched has an unknown wall time, never a short one', async t => {
	const base = report('baseline', [task(0, true, 4, 400, 100)]);
	const result = applyAcceptance(policy({improvement: 'tokens'}), base, report('candidate', [task(0, true, 2, 200, 100)]), {baseline: 1000, candidate: null, source: 'supervised host wall time (process.json)'});
	t.equal(result.duration_ratio, null);
	t.equal(result.checks.find(check => check.rule === 'max_duration_ratio')?.satisfied, false);
});
