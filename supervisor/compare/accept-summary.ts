import type {ReportSummary, TaskSummary} from '../../controller-protocol/index.js';
import type {Report} from '../attempt/report/report-schema.js';
import type {Rescore} from './controller-rescore.js';

/** The failure named in a summary for a task the pinned controller could not re-score. */
export const rescoreFailure = 'rescore';

/**
 * What `accept` is told about one side: the report in frozen order, with each verdict replaced by the pinned
 * controller's re-score. A task whose re-score failed is a failure, so it can never count for the side.
 */
export function acceptSummary(report: Report, rescores: Map<string, Rescore | null>): ReportSummary {
	const tasks = report.tasks.map((task): TaskSummary => {
		const rescore = rescores.get(task.task_id);
		const base = {id: task.task_id, failure: task.reason, turns: task.usage?.turns ?? null, total_tokens: task.usage?.total_tokens ?? null, wall_ms: task.wall_ms};
		if (rescore === undefined) return {...base, passed: task.status === 'passed', score: task.grade?.score ?? null};
		if (rescore === null) return {...base, passed: false, score: null, failure: task.reason ?? rescoreFailure};
		return {...base, passed: rescore.passed, score: rescore.score};
	});
	const passed = tasks.filter(task => task.passed).length;
	return {plan_digest: report.plan_digest, tasks, totals: {...report.totals, tasks: tasks.length, passed, failed: tasks.length - passed}};
}
