import {setTimeout as sleep} from 'node:timers/promises';
import {withDescendants} from './find-members.js';
import {groupExists, signalGroup} from './kill-group.js';
import {carriesMarker, freshTable, readTable, type ProcStat} from './proc-table.js';
import {identityOf, isStillRunning, signalIdentity, type ProcessIdentity} from './process-identity.js';
import type {KilledProcess} from './process-record.js';
import type {Descendants} from './descendant-tracker.js';
import {killWaitMs} from './grace.js';

/** Everything known about a started tree that lets its members be found again. */
export interface TreeHandle {
	pgid: number;
	/** The leader's start time: no member can have started before it, which keeps scans short. */
	startTime: number;
	/** `KEY=value` in the environment of every member that did not clear it. */
	marker: string;
	descendants: Descendants;
}

export interface StopOptions {
	graceMs: number;
	/** Test-only: skip the sweep of members that left the group, to prove the check notices. */
	sweep?: boolean;
	/** A descendant snapshot still under way; the sweep waits for it, the group signals do not. */
	snapshot?: Promise<void>;
	/** How a member found outside the group is ended (default: SIGKILL to that pid after re-identifying it). */
	endEscaped?: (stat: ProcStat) => boolean;
}

type Record = (stats: ProcStat[], how: KilledProcess['how']) => void;

export interface StopResult {
	killed: KilledProcess[];
	survivors: number[];
}

const pollMs = 10;
/** After SIGKILL the group empties within milliseconds: look more often. */
const killPollMs = 2;
/** The pause before the second empty look: long enough for a fork or exec under load to finish. */
const confirmMs = 20;
const maxSweepRounds = 50;

/**
 * Ends a whole tree: SIGTERM to the group, a grace, SIGKILL to the group,
 * then a sweep of members that left it (by marker or tracked ancestry), then a last look for survivors.
 */
export async function stopTree(tree: TreeHandle, options: StopOptions): Promise<StopResult> {
	const killed: KilledProcess[] = [];
	const record: Record = (stats, how) => {
		for (const stat of stats) killed.push({pid: stat.pid, comm: stat.comm, how, in_group: how !== 'sweep'});
	};
	await endGroup(tree.pgid, options.graceMs, record);
	await options.snapshot;
	const endEscaped = options.endEscaped ?? killIdentified;
	// A completed sweep ended on two empty looks, which is the final check itself.
	if (options.sweep !== false && await sweepUntilQuiet(table => members(tree, table), endEscaped, record)) return {killed, survivors: []};
	return {killed, survivors: members(tree, readTable()).map(stat => stat.pid)};
}

/** SIGTERM to the group, the grace, then SIGKILL until the group is empty; every pid signalled is recorded. */
export async function endGroup(pgid: number, graceMs: number, record: Record): Promise<void> {
	// A group that already ended (the usual case) needs no scan of /proc.
	const initial = groupExists(pgid) ? groupMembers(pgid) : [];
	if (initial.length === 0) return;
	signalGroup(pgid, 'SIGTERM');
	record(initial, 'term');
	let left = await waitGroupGone(pgid, graceMs, initial, pollMs);
	// A parent may still be forking while it is stopped: repeat SIGKILL until the group is empty.
	for (let round = 0; left.length > 0 && round < 20; round += 1) {
		signalGroup(pgid, 'SIGKILL');
		record(left, 'kill');
		left = await waitGroupGone(pgid, killWaitMs, left, killPollMs);
	}
}

/** Waits until the group is empty, starting from the members just signalled; returns whoever is left then. */
async function waitGroupGone(pgid: number, waitMs: number, signalled: ProcStat[], everyMs: number): Promise<ProcStat[]> {
	const until = performance.now() + waitMs;
	let left = signalled;
	for (let now = performance.now(); left.length > 0 && now < until; now = performance.now()) {
		// The last pause ends at the timeout, not a poll after it.
		await sleep(Math.min(everyMs, until - now));
		// Check only the known pids while they live; once they are all gone, an empty group needs no scan.
		if (left.some(isStillRunning)) continue;
		left = groupExists(pgid) ? groupMembers(pgid) : [];
	}
	// At the timeout the known list may miss members forked meanwhile: the next signal's record must name them.
	return left.length === 0 ? left : groupMembers(pgid);
}

/**
 * Ends what `find` returns until two looks in a row find none (true), or gives up after its rounds (false).
 * The one sweep: a tree's escaped members at its end, and everything carrying a marker (see kill-marked.ts).
 */
export async function sweepUntilQuiet(find: (table: ProcStat[]) => ProcStat[], end: (stat: ProcStat) => boolean, record: Record): Promise<boolean> {
	// A process in the middle of fork or exec can be briefly unreadable: only two empty looks in a row end the sweep.
	for (let round = 0, empty = 0; round < maxSweepRounds; round += 1) {
		// Sweeps running at the same moment share each read of /proc; every read still starts after the look was asked for.
		const found = find(await freshTable());
		empty = found.length === 0 ? empty + 1 : 0;
		if (empty === 2) return true;
		record(found.filter(end), 'sweep');
		await sleep(empty > 0 ? confirmMs : pollMs);
	}
	return false;
}

function killIdentified(stat: ProcStat): boolean {
	return signalIdentity(identityOf(stat), 'SIGKILL');
}


function groupMembers(pgid: number): ProcStat[] {
	return readTable().filter(stat => stat.pgid === pgid && stat.pid !== process.pid);
}

/** Members of the tree wherever they went: the group, the marker, tracked ancestry, and their children. */
function members(tree: TreeHandle, table: ProcStat[]): ProcStat[] {
	// No member can be older than the leader: skip reading the environment of everything else.
	return withDescendants(table, stat => stat.startTime >= tree.startTime
		&& (stat.pgid === tree.pgid || isTracked(tree.descendants, stat) || carriesMarker(stat, tree.marker)));
}

function isTracked(descendants: Descendants, stat: ProcStat): boolean {
	const seen: ProcessIdentity | undefined = descendants.get(stat.pid);
	return seen !== undefined && seen.startTime === stat.startTime;
}
