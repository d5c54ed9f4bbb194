import {statSync} from 'node:fs';
import {statfs} from 'node:fs/promises';
import type {TaskFailure} from './failed-result.js';

/**
 * How long one reading of a root's free space serves the tasks that start after it: at hundreds of tasks a second, a
 * statfs each was a thread-pool trip per task (bench/README.md, "The task threads' per-task work"); the check guards
 * against a root already full, which a tenth of a second does not hide.
 */
const readingServesMs = 100;

const readings = new Map<string, {at: number; free: Promise<number | null>}>();

/**
 * Whether the file system that will hold a task's workspace has room for one more (its limit) before the task starts:
 * a full runtime root is the machine's failure, named as such, not a task that dies halfway for want of space.
 */
export async function checkRuntimeSpace(root: string, neededBytes: number): Promise<TaskFailure | null> {
	const free = await freeBytes(root);
	// A file system that cannot be asked is not refused here; writing to it will say what is wrong.
	if (free === null || free >= neededBytes) return null;
	return {reason: 'runtime_space', message: `not started: the runtime root ${root} has ${free} bytes free, less than the ${neededBytes} bytes one workspace may take (an infrastructure failure: free space there, or lower --workspace-limit)`};
}

/**
 * The free bytes of the file system holding `root`, read at most once per `readingServesMs` for that file system (tasks
 * starting together share the reading in flight). Keyed by device, not path: each task's runtime folder is its own
 * path, and keyed by it every task paid a statfs through the thread pool (a `stat` here is a tenth of one).
 */
export function freeBytes(root: string): Promise<number | null> {
	const now = performance.now();
	const key = fileSystemKey(root);
	const last = readings.get(key);
	if (last !== undefined && now - last.at < readingServesMs) return last.free;
	const free = statfs(root).then(info => info.bavail * info.bsize, () => null);
	readings.set(key, {at: now, free});
	return free;
}

/** The device holding the path; the path itself where it cannot be asked (then statfs says what is wrong). */
function fileSystemKey(path: string): string {
	const dev = statSync(path, {throwIfNoEntry: false})?.dev;
	return dev === undefined ? `path:${path}` : `dev:${dev}`;
}
