import {z} from 'zod';

/** One line of `hlab ls`: text or a JSON line; unknown is null. */
export const ListingLine = z.object({
	kind: z.enum(['attempt', 'decision', 'unreadable']),
	/** Relative to the folder listed. */
	path: z.string(),
	/** The plan's digest, shortened to its first 12 hex digits. */
	plan: z.string().nullable(),
	side: z.enum(['baseline', 'candidate']).nullable(),
	/** The candidate's source path, its agent package, or (for a decision) the candidate report's folder. */
	candidate: z.string().nullable(),
	/** An attempt's `passed`, `failed`, `interrupted`, `recovered`, `running` or `unfinished`; a decision's verdict. */
	status: z.string().nullable(),
	/** When the attempt ended (or started, without a report), or when the decision was taken. */
	when: z.string().nullable(),
	/** Why the line is incomplete: a file that is half-written or not ours; null when nothing is wrong. */
	problem: z.string().nullable(),
});
export type ListingLine = z.infer<typeof ListingLine>;

const widths = [10, 40, 12, 9, 24, 11];

/** The text form: fixed columns (the listing streams, so widths cannot be measured first), `-` for unknown. */
export function lineText(line: ListingLine): string {
	const text = columnsText([line.kind, line.path, line.plan, line.side, line.candidate, line.status, line.when]);
	return line.problem === null ? text : `${text}  (${line.problem})`;
}

export const headerText = columnsText(['KIND', 'PATH', 'PLAN', 'SIDE', 'CANDIDATE', 'STATUS', 'WHEN']);

function columnsText(cells: (string | null)[]): string {
	return cells.map((cell, index) => (cell ?? '-').padEnd(widths[index] ?? 0)).join(' ').trimEnd();
}
