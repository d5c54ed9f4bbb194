import t from 'tap';
import {failedResult} from '../../../../supervisor/attempt/task-core/failed-result.js';
import {TaskResult} from '../../../../supervisor/attempt/report/report-schema.js';

t.test('a task that never ran is failed with its reason and knows nothing else: unknown is null, never 0', async t => {
	const result = failedResult(3, 'sales_report', {reason: 'admission', message: 'admission rejected'});
	t.same(TaskResult.parse(result), result, 'a valid report entry');
	t.match(result, {index: 3, task_id: 'sales_report', status: 'failed', reason: 'admission', message: 'admission rejected'});
	t.equal(result.usage, null);
	t.equal(result.wall_ms, null);
	t.equal(result.grade, null);
	t.equal(result.outcome, null);
	t.same(result.evidence, {});
});

t.test('what a failed task did get to do is kept, and the failure is never graded', async t => {
	const usage = {turns: 2, input_tokens: 10, output_tokens: 5, cache_read_tokens: null, cache_write_tokens: null, total_tokens: 15, cost_usd: null};
	const outcome = {status: 'failed' as const, reason: 'timeout' as const, message: 'deadline', steps: 2, usage, final_text: null, stopped_by: null, time: null, infrastructure: null};
	const result = failedResult(0, 'a', {reason: 'timeout', message: 'deadline'}, {wall_ms: 1200, outcome, usage, evidence: {runtime_locations: 'tasks/001-a/runtime-locations.json'}});
	t.same(TaskResult.parse(result), result);
	t.equal(result.wall_ms, 1200);
	t.same(result.usage, usage);
	t.equal(result.grade, null);
	t.equal(result.status, 'failed');
	t.same(Object.keys(result), Object.keys(failedResult(0, 'a', {reason: 'init', message: 'x'})), 'the same fields in the same order either way');
});
