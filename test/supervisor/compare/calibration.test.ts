import t from 'tap';
import {calibrationOf} from '../../../supervisor/compare/calibration.js';
import type {Report, TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';

function task(index: number, turns: number, tokens: number | null, wall: number): TaskResult {
	return {
		index, task_id: `t${index}`, status: 'passed', reason: null, message: null, grade: {passed: true, score: null, details: ''}, outcome: null,
		usage: {turns, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: tokens, cost_usd: null},
		wall_ms: wall, evidence: {},
	};
}

function report(tasks: TaskResult[]): Report {
	return {
		schema: 'harness-lab/report@1', attempt_id: 'a', side: 'baseline', timing: 'in-process', host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan_digest: 'sha256:x', completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: tasks.map(item => item.task_id), tasks,
		totals: totalsOf(tasks), passed: true, problems: [], started_at: '', ended_at: '', attempt_wall_ms: 1,
	};
}

t.test('the spread of identical runs, per statistic, and twice the relative spread as the margin', async t => {
	const a = report([task(0, 5, 1000, 100), task(1, 5, 1000, 100)]);
	const b = report([task(0, 5, 1030, 100), task(1, 5, 990, 140)]);
	const calibration = calibrationOf({dir: 'a', report: a}, {dir: 'b', report: b});
	const tokens = calibration.statistics.find(item => item.statistic === 'total_tokens')!;
	t.equal(tokens.spread, 20);
	t.equal(tokens.relative, 20 / 2010);
	t.equal(tokens.per_trial, 10);
	t.same(tokens.largest, {task_id: 't0', spread: 30}, 'the entry that moved most, though the totals moved less');
	t.same(tokens.suggested_min_effect, {relative: 0.02}, '2 × 0.995% rounded up to a per mille');
	const turns = calibration.statistics.find(item => item.statistic === 'turns')!;
	t.equal(turns.spread, 0);
	t.equal(turns.suggested_min_effect, null, 'no spread, no margin to suggest');
	t.equal(calibration.statistics.find(item => item.statistic === 'wall_ms')!.suggested_min_effect, null, 'the duration has its own limit');
	t.same(calibration.min_effect, {tokens: {relative: 0.02}});
});

t.test('an unknown value on a run leaves the spread unknown, never 0', async t => {
	const a = report([task(0, 5, null, 100)]);
	const b = report([task(0, 6, 1000, 100)]);
	const tokens = calibrationOf({dir: 'a', report: a}, {dir: 'b', report: b}).statistics.find(item => item.statistic === 'total_tokens')!;
	t.equal(tokens.spread, null);
	t.equal(tokens.largest, null);
	t.equal(tokens.suggested_min_effect, null);
});
