import {statfs} from 'node:fs/promises';
import type {TaskFailure} from './failed-result.js';

/**
 * Whether the file system that will hold a task's workspace has room for one more (its limit) before the task starts:
 * a full runtime root is the machine's failure, named as such, not a task that dies halfway for want of space.
 */
export async function checkRuntimeSpace(root: string, neededBytes: number): Promise<TaskFailure | null> {
	let free: number;
	try {
		const info = await statfs(root);
		free = info.bavail * info.bsize;
	} catch {
		// A file system that cannot be asked is not refused here; writing to it will say what is wrong.
		return null;
	}
	if (free >= neededBytes) return null;
	return {reason: 'runtime_space', message: `not started: the runtime root ${root} has ${free} bytes free, less than the ${neededBytes} bytes one workspace may take (an infrastructure failure: free space there, or lower --workspace-limit)`};
}
