import {z} from 'zod';
import {TaskId} from './task.js';

const Count = z.number().int().nonnegative();

/** One task's line in a report summary; unknown usage is null, never 0. */
export const TaskSummary = z.looseObject({
	id: TaskId,
	/** The independent grade, not the candidate's claim. */
	passed: z.boolean(),
	score: z.number().min(0).max(1).nullable(),
	/** Why the task did not finish (`timeout`, `crash`, ...), null when it finished. */
	failure: z.string().nullable(),
	turns: Count.nullable(),
	total_tokens: Count.nullable(),
	/** Supervisor-measured wall time. */
	wall_ms: z.number().nonnegative().nullable(),
});
export type TaskSummary = z.infer<typeof TaskSummary>;

export const ReportTotals = z.looseObject({
	tasks: Count,
	passed: Count,
	failed: Count,
	turns: Count.nullable(),
	total_tokens: Count.nullable(),
	cost_usd: z.number().nonnegative().nullable(),
	wall_ms: z.number().nonnegative().nullable(),
});
export type ReportTotals = z.infer<typeof ReportTotals>;

/**
 * What `accept` is told about one side of a comparison. Reports may carry more fields;
 * these are the ones every report has.
 */
export const ReportSummary = z.looseObject({
	plan_digest: z.string().min(1),
	/** In frozen task order, the whole denominator. */
	tasks: z.array(TaskSummary),
	totals: ReportTotals,
});
export type ReportSummary = z.infer<typeof ReportSummary>;
