import {carriesMarker, readTable, type ProcStat} from './proc-table.js';

/**
 * The processes that match, plus every descendant of one: a child is a member even when it
 * cleared the environment marker before anything saw it. The supervisor itself is never a member.
 */
export function withDescendants(table: ProcStat[], matches: (stat: ProcStat) => boolean): ProcStat[] {
	const found = new Map<number, ProcStat>();
	for (const stat of table) if (stat.pid !== process.pid && matches(stat)) found.set(stat.pid, stat);
	let grew = found.size > 0;
	while (grew) {
		grew = false;
		for (const stat of table) {
			if (!found.has(stat.pid) && found.has(stat.ppid) && stat.pid !== process.pid) {
				found.set(stat.pid, stat);
				grew = true;
			}
		}
	}
	return [...found.values()];
}

/** Every running process carrying the marker entry, and every descendant of one (they may have cleared it). */
export function findMarked(entry: string, table: ProcStat[] = readTable()): ProcStat[] {
	return withDescendants(table, stat => carriesMarker(stat, entry));
}
