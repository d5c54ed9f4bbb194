import {z} from 'zod';
import type {Report} from '../attempt/report/report-schema.js';

/** An entry whose provider was retried, or that the infrastructure failed: kept in the denominator as it ran, and named here. */
export const RetriedEntry = z.object({
	side: z.enum(['baseline', 'candidate']),
	task_id: z.string(),
	/** Requests the engine repeated after a transient provider failure; null when the side does not report it. */
	provider_retries: z.number().int().nonnegative().nullable(),
	/** The provider stayed unavailable until the deadline: a rerun of the whole comparison is the remedy, never of this entry alone. */
	infrastructure: z.boolean(),
});
export type RetriedEntry = z.infer<typeof RetriedEntry>;

/**
 * Every entry on either side that was retried or failed by the infrastructure, apart from the outcome tables. Each
 * entry counts once, as it first ran: verification refuses a report whose results are not exactly the plan's ordered
 * denominator, so a rerun that passed can never stand in for the run that failed.
 */
export function retriedEntries(baseline: Report | null, candidate: Report | null): RetriedEntry[] {
	return [...entriesOf('baseline', baseline), ...entriesOf('candidate', candidate)];
}

function entriesOf(side: RetriedEntry['side'], report: Report | null): RetriedEntry[] {
	return (report?.tasks ?? []).flatMap(task => {
		const retries = task.outcome?.time?.retries ?? null;
		const infrastructure = task.outcome?.infrastructure === true;
		return (retries ?? 0) > 0 || infrastructure ? [{side, task_id: task.task_id, provider_retries: retries, infrastructure}] : [];
	});
}
