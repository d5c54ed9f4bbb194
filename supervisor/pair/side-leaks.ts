import {z} from 'zod';
import {Containment, describeLeaks, type ProcessRecord} from '../../process/index.js';

/** What outlived one side: its executable's tree, ended by the pair, and its own report's count of what outlived its tasks. */
export const SideLeaks = z.object({
	backend: Containment,
	/** Processes that outlived the side's executable (or left its group) and were ended by the pair's cleanup. */
	ended: z.array(z.object({pid: z.number().int(), comm: z.string().nullable()})),
	/** How many processes the side's report says outlived a task or its attempt; null when its report has no leak audit. */
	reported: z.number().int().nonnegative().nullable(),
	/** The sentence `hlab pair` prints, as `hlab supervise` would; null when nothing leaked. */
	message: z.string().nullable(),
});
export type SideLeaks = z.infer<typeof SideLeaks>;

/** The side's view of a report: only the count of its leak audit is read. */
export const ReportLeaks = z.object({leaked: z.array(z.unknown())}).loose().nullable().optional();

export function sideLeaks(side: string, record: ProcessRecord, reported: number | null): SideLeaks {
	const ended = record.leaks.map(pid => ({pid, comm: record.killed.find(entry => entry.pid === pid)?.comm ?? null}));
	const parts = [
		...(ended.length > 0 ? [describeLeaks(record, `the ${side}`)] : []),
		...(reported !== null && reported > 0 ? [`its report lists ${reported} process(es) that outlived their task and were ended`] : []),
	];
	return {backend: record.containment, ended, reported, message: parts.length === 0 ? null : `${side}: ${parts.join('; ')}`};
}
