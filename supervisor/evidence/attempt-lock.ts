import {readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {z} from 'zod';
import {writeJsonSync} from '../../files/write-json.js';
import {readBootId} from '../../process/proc-table.js';
import {isStillRunning, ownIdentity} from '../../process/process-identity.js';

/**
 * `DIR/lock.json`: which supervisor holds the attempt, in the directory from its first instant (written before the
 * directory is renamed into place) until the attempt closes. `--recover` refuses a directory whose holder still runs.
 * No OS lock: Node has no flock(2), and a lock package's staleness by mtime can expire under a busy event loop; the
 * kernel's pid with its start time (and the boot they count from) names the holder exactly, reused pid or not.
 */
export const AttemptLock = z.object({
	schema: z.literal('harness-lab/attempt-lock@1'),
	attempt_id: z.string(),
	/** The marker every process of the attempt inherits (`KEY=1`): a recovery ends them even before attempt.json exists. */
	process_marker: z.string(),
	pid: z.number().int().positive(),
	/** Clock ticks since boot (`/proc/<pid>/stat`); null where there is no /proc. */
	start_time: z.number().int().nonnegative().nullable(),
	boot_id: z.string().nullable(),
});
export type AttemptLock = z.infer<typeof AttemptLock>;

export const lockFile = 'lock.json';

/** Written durable: the directory is renamed into place only with it, and a recovery trusts it to tell the holder. */
export function writeAttemptLock(dir: string, attempt: {attemptId: string; marker: string}): AttemptLock {
	const lock: AttemptLock = {
		schema: 'harness-lab/attempt-lock@1', attempt_id: attempt.attemptId, process_marker: attempt.marker,
		pid: process.pid, start_time: ownIdentity()?.startTime ?? null, boot_id: readBootId(),
	};
	writeJsonSync(join(dir, lockFile), lock, {exclusive: true, durable: true});
	return lock;
}

/** The lock of an evidence directory, or null when it has none (released by its supervisor, or written before locks). */
export function readAttemptLock(dir: string): AttemptLock | null {
	try {
		return AttemptLock.parse(JSON.parse(readFileSync(join(dir, lockFile), 'utf8')));
	} catch {
		// Missing, or not a lock: the write is atomic, so no supervisor left this; nobody holds it.
		return null;
	}
}

/** True while the very process that took the lock runs: same boot, same pid, same start time. */
export function holderRuns(lock: Pick<AttemptLock, 'pid' | 'start_time' | 'boot_id'>): boolean {
	if (lock.boot_id !== null && readBootId() !== null && lock.boot_id !== readBootId()) return false;
	// Without a start time the pid alone must do; a reused pid then looks alive, which refuses rather than destroys.
	if (lock.start_time === null) return pidExists(lock.pid);
	return isStillRunning({pid: lock.pid, startTime: lock.start_time, comm: ''});
}

function pidExists(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The attempt closed: its processes are ended and its runtime state moved, so a recovery may take the directory. */
export function releaseAttemptLock(dir: string): void {
	rmSync(join(dir, lockFile), {force: true});
}
