import {lstat} from 'node:fs/promises';
import {walkTree} from '../../../files/walk-tree.js';
import type {TaskFailure} from './failed-result.js';

/** How often a running task's workspace is measured: often enough that a runaway writer is stopped early, rarely enough to cost little. */
export const quotaIntervalMs = 100;

/** A measurement's share of the time at most: a workspace of many files (an installed node_modules) is walked less often. */
const measureShare = 1 / 20;

/** The wait before the next measurement: the interval, or longer when walking the workspace took long. */
export function nextWaitMs(intervalMs: number, lastMeasureMs: number): number {
	return Math.max(intervalMs, Math.round(lastMeasureMs / measureShare));
}

/** A running task's workspace under its limit: a signal that ends the task when the workspace grows past it. */
export interface WorkspaceQuota {
	/** The attempt's signal, and this quota's: the execution stops on either. */
	signal: AbortSignal;
	/** Measures once more (the execution ended) and stops watching; the failure when the workspace went over. The same answer on every call. */
	finish(): Promise<TaskFailure | null>;
}

/**
 * Watches a workspace's allocated size while its task runs (no privilege can mount a size-limited tmpfs here, so the
 * limit is a checked quota). Allocated blocks, not file sizes: a sparse file takes no room, a written one does.
 */
export function watchWorkspace(workspace: string, limitBytes: number, parent: AbortSignal, intervalMs = quotaIntervalMs): WorkspaceQuota {
	const controller = new AbortController();
	let over: number | null = null;
	let stopped = false;
	let timer: NodeJS.Timeout | undefined;
	let lastMeasureMs = 0;
	const measure = async (): Promise<void> => {
		const started = performance.now();
		const bytes = await allocatedBytes(workspace);
		lastMeasureMs = performance.now() - started;
		if (bytes > limitBytes && over === null) {
			over = bytes;
			controller.abort();
		}
	};
	const poll = (): void => {
		timer = setTimeout(() => void measure().then(() => {
			if (!stopped && over === null) poll();
		}), nextWaitMs(intervalMs, lastMeasureMs));
	};
	poll();
	let finished: Promise<TaskFailure | null> | null = null;
	const finish = async (): Promise<TaskFailure | null> => {
		stopped = true;
		clearTimeout(timer);
		if (over === null) await measure();
		return over === null ? null : exceeded(over, limitBytes);
	};
	return {
		signal: AbortSignal.any([parent, controller.signal]),
		finish: () => (finished ??= finish()),
	};
}

/** Bytes the tree's files take on their file system (st_blocks × 512; each inode once, links never followed). */
export async function allocatedBytes(dir: string): Promise<number> {
	const seen = new Set<number>();
	let total = 0;
	for (const file of await walkTree(dir)) {
		// A file removed between the listing and here takes no room.
		const info = await lstat(file.path).catch(() => null);
		if (info === null || seen.has(info.ino)) continue;
		seen.add(info.ino);
		total += info.blocks * 512;
	}
	return total;
}

function exceeded(bytes: number, limitBytes: number): TaskFailure {
	return {reason: 'workspace_limit', message: `the workspace took ${bytes} bytes, over the plan's workspace limit of ${limitBytes} bytes; the task was ended`};
}
