import {setTimeout as sleep} from 'node:timers/promises';
import {withDescendants} from './find-members.js';
import {signalGroup} from './kill-group.js';
import {carriesMarker, readStat, readTable, type ProcStat} from './proc-table.js';
import {identityOf, isStillRunning, signalIdentity, type ProcessIdentity} from './process-identity.js';

/** Every running process carrying the marker entry, and every descendant of one (they may have cleared it). */
export function findMarked(entry: string, table: ProcStat[] = readTable()): ProcStat[] {
	return withDescendants(table, stat => carriesMarker(stat, entry));
}

/**
 * Ends every process carrying the marker until two consecutive looks find none; returns the pids it killed.
 * Each pid is checked against its start time before the signal, so a reused pid is never hit.
 */
export async function killMarked(entry: string, maxRounds = 50): Promise<number[]> {
	const killed: number[] = [];
	let quiet = 0;
	for (let round = 0; round < maxRounds && quiet < 2; round += 1) {
		const found = findMarked(entry);
		if (found.length === 0) {
			quiet += 1;
		} else {
			quiet = 0;
			for (const stat of found) if (signalIdentity(identityOf(stat), 'SIGKILL')) killed.push(stat.pid);
		}
		await sleep(50);
	}
	return killed;
}

/** The identity of a group leader as announced, so the group can be ended later only if it is still that process. */
export function identifyLeader(pid: number): ProcessIdentity | null {
	const stat = readStat(pid);
	return stat === null ? null : identityOf(stat);
}

/** SIGKILLs each announced group whose leader is still the same process; members that left are found by marker. */
export function killGroups(leaders: ProcessIdentity[]): void {
	for (const leader of leaders) {
		if (isStillRunning(leader)) signalGroup(leader.pid, 'SIGKILL');
	}
}
