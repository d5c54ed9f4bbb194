import {groupExists} from '../kill-group.js';
import {readStat, type ProcStat} from '../proc-table.js';
import {identityOf, signalIdentity} from '../process-identity.js';
import type {KilledProcess} from '../process-record.js';
import {endGroup, type StopResult} from '../stop-tree.js';
import {cgroupMembers, killCgroup, nestedMembers, subtreeMembers, waitPopulated, type TreeCgroup} from './tree-cgroup.js';
import {killWaitMs} from '../grace.js';

export interface CgroupStopOptions {
	/** The leader's process group. */
	pgid: number;
	graceMs: number;
	/** Settles once the leader has entered the cgroup or exited: before that, an empty cgroup proves nothing. */
	entered: Promise<unknown>;
	/** Test-only: end the process group alone, as if the cgroup did not exist, to prove the check notices. */
	sweep?: boolean;
}

/**
 * Ends every process in the tree's cgroup: SIGTERM to each, the grace, then cgroup.kill.
 * `populated 0` in cgroup.events is the proof that nothing survives; no /proc scan decides it.
 */
export async function stopCgroupTree(tree: TreeCgroup, options: CgroupStopOptions): Promise<StopResult> {
	await options.entered;
	const killed: KilledProcess[] = [];
	const record = (stats: ProcStat[], how: KilledProcess['how']): void => {
		for (const stat of stats) killed.push({pid: stat.pid, comm: stat.comm, how, in_group: stat.pgid === options.pgid});
	};
	if (options.sweep === false) {
		await endGroup(options.pgid, options.graceMs, record);
		await waitPopulated(tree, false, 100);
		return {killed, survivors: subtreeMembers(tree)};
	}
	const initial = [...memberStats(tree), ...nestedGroupMembers(tree, options.pgid)];
	if (initial.length === 0 && await waitPopulated(tree, false, 0)) return {killed, survivors: []};
	record(initial.filter(stat => signalIdentity(identityOf(stat), 'SIGTERM')), 'term');
	if (!await waitPopulated(tree, false, options.graceMs)) {
		// Whoever is left is in the cgroup or below it by construction: one write ends them all, forks in flight included,
		// and each is named, wherever below it sits.
		record(subtreeStats(tree), 'kill');
		killCgroup(tree);
		await waitPopulated(tree, false, killWaitMs);
	}
	return {killed, survivors: subtreeMembers(tree)};
}

/**
 * The leader's group where it sits deeper in the tree (a supervisor inside that moved into a cgroup of its own, as a
 * pair's side does): it is told to stop too, and stops its own trees itself; the rest of the subtree waits for cgroup.kill.
 * Read from the nested cgroups' member lists, not from a scan of /proc: a tree of 100 spent ~9 ms on the scan before its grace.
 */
function nestedGroupMembers(tree: TreeCgroup, pgid: number): ProcStat[] {
	// The usual case, a group already gone, needs no read of the tree at all.
	if (pgid <= 1 || !groupExists(pgid)) return [];
	return statsOf(nestedMembers(tree)).filter(stat => stat.pgid === pgid);
}

function memberStats(tree: TreeCgroup): ProcStat[] {
	return statsOf(cgroupMembers(tree));
}

function subtreeStats(tree: TreeCgroup): ProcStat[] {
	return statsOf(subtreeMembers(tree));
}

function statsOf(pids: number[]): ProcStat[] {
	return pids.map(pid => readStat(pid)).filter(stat => stat !== null);
}
