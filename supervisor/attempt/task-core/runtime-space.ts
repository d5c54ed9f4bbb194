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

/** The root's free bytes, read at most once per `readingServesMs` (tasks starting together share the reading in flight). */
function freeBytes(root: string): Promise<number | null> {
	const now = performance.now();
	const last = readings.get(root);
	if (last !== undefined && now - last.at < readingServesMs) return last.free;
	const free = statfs(root).then(info => info.bavail * info.bsize, () => null);
	readings.set(root, {at: now, free});
	return free;
}
