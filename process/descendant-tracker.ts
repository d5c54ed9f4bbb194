import pidtree from 'pidtree';
import {readStat, isRunning} from './proc-table.js';
import {identityOf, type ProcessIdentity} from './process-identity.js';

const pollIntervalMs = 200;

/** The descendants seen so far of one running tree, by pid. */
export type Descendants = Map<number, ProcessIdentity>;

const watched = new Map<number, Descendants>();
let timer: NodeJS.Timeout | undefined;
let polling = false;

/**
 * Records, while a tree runs, every descendant of its leader.
 * One shared `pidtree` snapshot serves every watched tree, so the cost does not grow with concurrency.
 */
export function watchDescendants(leader: ProcessIdentity): Descendants {
	const seen: Descendants = new Map([[leader.pid, leader]]);
	watched.set(leader.pid, seen);
	timer ??= setInterval(poll, pollIntervalMs).unref();
	return seen;
}

export function unwatchDescendants(leaderPid: number): void {
	watched.delete(leaderPid);
	if (watched.size === 0 && timer !== undefined) {
		clearInterval(timer);
		timer = undefined;
	}
}

/** Takes one snapshot now and adds what it finds; also used right before cleanup. */
export async function refreshDescendants(): Promise<void> {
	if (watched.size === 0) return;
	let pairs: Array<{ppid: number; pid: number}>;
	try {
		pairs = await pidtree(-1, {advanced: true});
	} catch {
		return; // A failed snapshot only loses this round; the environment tag still finds the tree.
	}
	const children = new Map<number, number[]>();
	for (const {ppid, pid} of pairs) {
		const list = children.get(ppid);
		if (list) list.push(pid);
		else children.set(ppid, [pid]);
	}
	for (const seen of watched.values()) addDescendants(seen, children);
}

function addDescendants(seen: Descendants, children: Map<number, number[]>): void {
	const queue = [...seen.keys()];
	while (queue.length > 0) {
		for (const child of children.get(queue.pop()!) ?? []) {
			if (seen.has(child)) continue;
			const stat = readStat(child);
			if (!isRunning(stat)) continue;
			seen.set(child, identityOf(stat));
			queue.push(child);
		}
	}
}

async function poll(): Promise<void> {
	if (polling) return;
	polling = true;
	try {
		await refreshDescendants();
	} finally {
		polling = false;
	}
}
