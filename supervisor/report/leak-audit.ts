import {z} from 'zod';
import type {TaskResult} from '../attempt/report/report-schema.js';

/** A task's leak audit as the table shows it; null when the report carries none (older or recovered reports), shown as "—". */
export const LeakCell = z.object({
	summary: z.string(),
	/** Nothing outlived the task and nothing survived being ended: the page colours the cell only when this is false. */
	clean: z.boolean(),
	/** The audit as recorded, for the task's detail panel. */
	detail: z.string(),
});
export type LeakCell = z.infer<typeof LeakCell>;

/** The table's cell for a task's audit: how many processes outlived it, and any that survived being ended. */
export function leakCell(task: TaskResult): LeakCell | null {
	const audit = task.leak_audit ?? null;
	if (audit === null) return null;
	const leaked = audit.leaked.length === 0 ? 'none' : `${audit.leaked.length} leaked`;
	const summary = audit.survivors.length === 0 ? leaked : `${leaked}, ${audit.survivors.length} survived`;
	const clean = audit.leaked.length === 0 && audit.survivors.length === 0;
	return {summary: `${summary} (${audit.backend})`, clean, detail: JSON.stringify(audit, null, 2)};
}
