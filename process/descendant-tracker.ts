import pidtree from 'pidtree';
import {lastCreatedPid, readStat, readTable, isRunning} from './proc-table.js';
import {identityOf, type ProcessIdentity} from './process-identity.js';

const pollIntervalMs = 200;

/** The descendants seen so far of one running tree, by pid. */
export type Descendants = Map<number, ProcessIdentity>;

/** Every running process's parent, as one source reads it. */
type ReadParents = () => Promise<Array<{ppid: number; pid: number}> | null>;

export interface DescendantTracker {
	/** Records, while a tree runs, every descendant of its leader. */
	watch(leader: ProcessIdentity): Descendants;
	unwatch(leaderPid: number): void;
	/** Takes one snapshot now and adds what it finds; also used right before cleanup. */
	refresh(): Promise<void>;
}

/**
 * One shared snapshot per poll serves every watched tree, so the cost does not grow with concurrency.
 * A failed snapshot only loses its round; the environment marker still finds the tree.
 */
function createTracker(readParents: ReadParents): DescendantTracker {
	const watched = new Map<number, Descendants>();
	let timer: NodeJS.Timeout | undefined;
	let polling = false;
	const refresh = async (): Promise<void> => {
		if (watched.size === 0) return;
		const pairs = await readParents();
		if (pairs === null) return;
		const children = childrenByParent(pairs);
		for (const seen of watched.values()) addDescendants(seen, children);
	};
	const poll = async (): Promise<void> => {
		if (polling) return;
		polling = true;
		try {
			await refresh();
		} finally {
			polling = false;
		}
	};
	return {
		watch(leader) {
			const seen: Descendants = new Map([[leader.pid, leader]]);
			watched.set(leader.pid, seen);
			timer ??= setInterval(poll, pollIntervalMs).unref();
			return seen;
		},
		unwatch(leaderPid) {
			watched.delete(leaderPid);
			if (watched.size === 0 && timer !== undefined) {
				clearInterval(timer);
				timer = undefined;
			}
		},
		refresh,
	};
}

let lastSeenPid: number | null = null;

/** Linux: the parents come from the /proc table already read elsewhere; no `ps` is forked. */
export const procTracker = createTracker(async () => {
	// No process was created since the last look: nothing new can have joined any tree.
	const last = lastCreatedPid();
	if (last !== null && last === lastSeenPid) return null;
	lastSeenPid = last;
	return readTable().map(stat => ({pid: stat.pid, ppid: stat.ppid}));
});

/** POSIX systems without /proc: `pidtree` asks `ps`. */
export const psTracker = createTracker(async () => {
	try {
		return await pidtree(-1, {advanced: true});
	} catch {
		return null;
	}
});

function childrenByParent(pairs: Array<{ppid: number; pid: number}>): Map<number, number[]> {
	const children = new Map<number, number[]>();
	for (const {ppid, pid} of pairs) {
		const list = children.get(ppid);
		if (list) list.push(pid);
		else children.set(ppid, [pid]);
	}
	return children;
}

function addDescendants(seen: Descendants, children: Map<number, number[]>): void {
	const queue = [...seen.keys()];
	while (queue.length > 0) {
		for (const child of children.get(queue.pop()!) ?? []) {
			if (seen.has(child)) continue;
			const identity = identify(child);
			if (identity === null) continue;
			seen.set(child, identity);
			queue.push(child);
		}
	}
}

/** The start time where /proc tells it; elsewhere an unknown start time (-1) that identity checks cannot confirm. */
function identify(pid: number): ProcessIdentity | null {
	const stat = readStat(pid);
	if (isRunning(stat)) return identityOf(stat);
	return stat === null && !procAvailable ? {pid, startTime: -1, comm: ''} : null;
}

const procAvailable = readStat(process.pid) !== null;
