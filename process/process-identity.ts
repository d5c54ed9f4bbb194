import {isRunning, readStat, type ProcStat} from './proc-table.js';

/** A pid together with the start time it had when it was seen. */
export interface ProcessIdentity {
	pid: number;
	startTime: number;
	comm: string;
}

export function identityOf(stat: ProcStat): ProcessIdentity {
	return {pid: stat.pid, startTime: stat.startTime, comm: stat.comm};
}

/** True only while the pid still names the very process that was seen and it has not finished. */
export function isStillRunning(identity: ProcessIdentity): boolean {
	const stat = readStat(identity.pid);
	return isRunning(stat) && stat.startTime === identity.startTime;
}

/** Signals one pid after checking it was not reused; false when it is gone or is someone else. */
export function signalIdentity(identity: ProcessIdentity, signal: NodeJS.Signals): boolean {
	if (!isStillRunning(identity)) return false;
	try {
		process.kill(identity.pid, signal);
		return true;
	} catch {
		return false;
	}
}

/** This process's own identity, or null where there is no /proc to read its start time from. */
export function ownIdentity(): ProcessIdentity | null {
	const stat = readStat(process.pid);
	return stat === null ? null : identityOf(stat);
}
