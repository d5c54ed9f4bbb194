import type {Report} from '../attempt/report/report-schema.js';
import type {ReplicateFeedback} from './search-record.js';

/**
 * The provider filter: what a provider may learn of one replicate's attempt. The suite's score (the share that
 * passed) and each task's execution measurements; no task's verdict, failure reason or grade, and no score at
 * all when the suite is one task, where the score would be that task's verdict.
 */
export function replicateFeedback(seed: number, report: Report): ReplicateFeedback {
	const executions = report.tasks.map(task => ({task_id: task.task_id, turns: task.usage?.turns ?? null, total_tokens: task.usage?.total_tokens ?? null, wall_ms: task.wall_ms}));
	const passed = report.tasks.filter(task => task.status === 'passed').length;
	const turns = executions.reduce<number | null>((sum, execution) => (sum === null || execution.turns === null ? null : sum + execution.turns), 0);
	return {seed, tasks: report.tasks.length, score: report.tasks.length > 1 ? passed / report.tasks.length : null, turns, executions};
}
