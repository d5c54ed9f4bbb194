import {lstatSync, type Stats} from 'node:fs';
import {lstat} from 'node:fs/promises';
import {walkTree, walkTreeSyncUpTo, type WalkedFile} from '../../../files/walk-tree.js';
import {inMemoryFileSystem} from './evidence-disk.js';
import type {TaskFailure} from './failed-result.js';

/** How often a running task's workspace is measured: often enough that a runaway writer is stopped early, rarely enough to cost little. */
export const quotaIntervalMs = 100;

/**
 * The measurements' share of the supervisor's time at most, all watched workspaces together: a workspace of many files
 * (an installed node_modules) is walked less often, and so is each of many running at once, so that 256 such
 * workspaces in flight do not take 256 twentieths of the thread.
 */
const measureShare = 1 / 20;

/** Workspaces watched right now, in this thread. */
let watching = 0;

/**
 * Up to this many files, a tree in memory is measured synchronously: a trip through the thread pool for each folder and
 * file cost the supervisor's thread more than the whole walk (bench/README.md, "The quota's walk"). A larger tree gives
 * the synchronous walk up and is walked through the pool from then on.
 */
const smallTreeFiles = 64;

/** The wait before the next measurement: the interval, or longer when walking the workspace took long or many are watched. */
export function nextWaitMs(intervalMs: number, lastMeasureMs: number, watched = 1): number {
	return Math.max(intervalMs, Math.round((lastMeasureMs * watched) / measureShare));
}

/** A running task's workspace under its limit: a signal that ends the task when the workspace grows past it. */
export interface WorkspaceQuota {
	/** The attempt's signal, and this quota's: the execution stops on either. */
	signal: AbortSignal;
	/** Measures once more (the execution ended) and stops watching; the failure when the workspace went over. The same answer on every call. */
	finish(): Promise<TaskFailure | null>;
}

/** What the quota watches and what its failure says it was watching (e.g. "while the task was graded"). */
export interface QuotaScope {
	folders: string[];
	during: string;
}

/**
 * Watches a workspace's allocated size while its task runs (no privilege can mount a size-limited tmpfs here, so the
 * limit is a checked quota). Allocated blocks, not file sizes: a sparse file takes no room, a written one does.
 * A scope of several folders counts them together: a grader that runs the candidate's code writes beyond the workspace.
 */
export function watchWorkspace(workspace: string | QuotaScope, limitBytes: number, parent: AbortSignal, intervalMs = quotaIntervalMs): WorkspaceQuota {
	const scope = typeof workspace === 'string' ? {folders: [workspace], during: 'while the task ran'} : workspace;
	const controller = new AbortController();
	let over: number | null = null;
	let stopped = false;
	let timer: NodeJS.Timeout | undefined;
	let lastMeasureMs = 0;
	// Asked at the first measure: whether the trees are in memory and small enough to walk synchronously.
	let walkSync: boolean | null = null;
	const measure = async (): Promise<void> => {
		const started = performance.now();
		walkSync ??= scope.folders.every(folder => inMemoryFileSystem(folder) === true);
		const small = walkSync ? allocatedBytesOfSmall(scope.folders) : null;
		if (small === null) walkSync = false;
		const bytes = small ?? await allocatedBytesOf(scope.folders);
		lastMeasureMs = performance.now() - started;
		if (bytes > limitBytes && over === null) {
			over = bytes;
			controller.abort();
		}
	};
	const poll = (): void => {
		timer = setTimeout(() => void measure().then(() => {
			if (!stopped && over === null) poll();
		}), nextWaitMs(intervalMs, lastMeasureMs, watching));
	};
	watching += 1;
	poll();
	let finished: Promise<TaskFailure | null> | null = null;
	const finish = async (): Promise<TaskFailure | null> => {
		stopped = true;
		watching -= 1;
		clearTimeout(timer);
		if (over === null) await measure();
		return over === null ? null : exceeded(over, limitBytes, scope);
	};
	return {
		signal: AbortSignal.any([parent, controller.signal]),
		finish: () => (finished ??= finish()),
	};
}

/** Bytes the tree's files take on their file system (st_blocks × 512; each inode once, links never followed). */
export async function allocatedBytes(dir: string): Promise<number> {
	return allocatedBytesOf([dir]);
}

/** The same for several trees together; an inode linked into two of them counts once, a missing folder not at all. */
async function allocatedBytesOf(dirs: string[]): Promise<number> {
	const files = (await Promise.all(dirs.map(dir => walkTree(dir)))).flat();
	const infos: Array<Stats | null> = [];
	// One at a time: a tree this large must not fill the thread pool the other tasks' files go through.
	for (const file of files) infos.push(await lstat(file.path).catch(() => null));
	return blocksOnce(infos);
}

/** The same, synchronously, for trees of `smallTreeFiles` files at most; null for a larger one. */
function allocatedBytesOfSmall(dirs: string[]): number | null {
	const files: WalkedFile[] = [];
	for (const dir of dirs) {
		const found = walkTreeSyncUpTo(dir, smallTreeFiles - files.length);
		if (found === null) return null;
		files.push(...found);
	}
	return blocksOnce(files.map(file => statOrNull(file.path)));
}

/** A file removed between the listing and here takes no room. */
function statOrNull(path: string): Stats | null {
	try {
		return lstatSync(path);
	} catch {
		return null;
	}
}

function blocksOnce(infos: Array<Stats | null>): number {
	const seen = new Set<number>();
	let total = 0;
	for (const info of infos) {
		if (info === null || seen.has(info.ino)) continue;
		seen.add(info.ino);
		total += info.blocks * 512;
	}
	return total;
}

function exceeded(bytes: number, limitBytes: number, scope: QuotaScope): TaskFailure {
	const what = scope.folders.length === 1 ? 'the workspace' : 'the workspace and the grader\'s folders';
	return {reason: 'workspace_limit', message: `${what} took ${bytes} bytes ${scope.during}, over the plan's workspace limit of ${limitBytes} bytes; the task was ended`};
}
