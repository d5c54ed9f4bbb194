import {renameSync} from 'node:fs';
import {removeTree} from '../../files/remove-tree.js';
import {runInGroup} from '../../process/index.js';

/** A copy of a workspace's worth of files takes seconds at most; past this, something is wrong with the disk. */
const copyDeadlineMs = 120_000;

/**
 * Moves a folder into the evidence: a rename, or across file systems (the runtime root is a tmpfs) a copy that keeps
 * holes as holes, so a file that took no room in the workspace takes none in the evidence. `cp --sparse=always` finds
 * the holes with SEEK_DATA/SEEK_HOLE and writes no run of zeros, so the copy never takes more room than the original;
 * Node's copyFile writes every byte of a sparse file. The original goes only once the copy is complete.
 */
export async function moveTreeSparse(from: string, to: string): Promise<void> {
	try {
		renameSync(from, to);
		return;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
	}
	const run = await runInGroup({
		argv: ['cp', '-a', '--sparse=always', '--no-target-directory', '--', from, to],
		deadlineMs: copyDeadlineMs, stdoutLimit: 64 * 1024, stderrLimit: 64 * 1024,
	});
	if (run.record.exit_code !== 0) {
		const why = run.stderr?.toString('utf8').trim() || run.record.failure_message || `exit ${run.record.exit_code ?? run.record.signal}`;
		throw new Error(`${from} could not be copied to ${to}: ${why}`);
	}
	removeTree(from);
}
