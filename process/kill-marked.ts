import {findMarked} from './find-members.js';
import {signalGroup} from './kill-group.js';
import {readStat} from './proc-table.js';
import {identityOf, isStillRunning, signalIdentity, type ProcessIdentity} from './process-identity.js';
import {sweepUntilQuiet} from './stop-tree.js';

export {findMarked};

/**
 * Ends every process carrying the marker (and their descendants) until two consecutive looks find none; returns
 * the pids it killed. Each pid is checked against its start time before the signal, so a reused pid is never hit.
 */
export async function killMarked(entry: string): Promise<number[]> {
	const killed: number[] = [];
	await sweepUntilQuiet(table => findMarked(entry, table), stat => signalIdentity(identityOf(stat), 'SIGKILL'), stats => {
		for (const stat of stats) killed.push(stat.pid);
	});
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
