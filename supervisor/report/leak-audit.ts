import {z} from 'zod';

/** A task's leak audit as the table shows it; null when the report carries none (older reports), shown as "—". */
export const LeakCell = z.object({
	summary: z.string(),
	/** The audit as recorded, for the task's detail panel. */
	detail: z.string(),
});
export type LeakCell = z.infer<typeof LeakCell>;

const auditKeys = ['leak_audit', 'leaks', 'leak'];

/** Reads the audit from a task entry of report.json as written, whatever its shape: a list of leaked processes, or an object holding one. */
export function leakCell(rawTask: unknown): LeakCell | null {
	if (rawTask === null || typeof rawTask !== 'object') return null;
	const record = rawTask as Record<string, unknown>;
	const key = auditKeys.find(name => record[name] !== undefined && record[name] !== null);
	if (key === undefined) return null;
	const audit = record[key];
	return {summary: summarize(audit), detail: JSON.stringify(audit, null, 2)};
}

function summarize(audit: unknown): string {
	const list = Array.isArray(audit) ? audit : leakedList(audit);
	if (list !== null) return list.length === 0 ? 'none' : `${list.length} leaked`;
	if (typeof audit === 'boolean') return audit ? 'leaked' : 'none';
	return 'recorded';
}

function leakedList(audit: unknown): unknown[] | null {
	if (audit === null || typeof audit !== 'object') return null;
	for (const name of ['leaked', 'leaks', 'survivors', 'processes']) {
		const inner = (audit as Record<string, unknown>)[name];
		if (Array.isArray(inner)) return inner;
	}
	return null;
}
