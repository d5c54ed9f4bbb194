import {randomUUID} from 'node:crypto';
import {mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {removeQuietly} from './cgroup-base.js';
import {cgroupMembers, killCgroup, waitPopulated, type TreeCgroup} from './tree-cgroup.js';
import {killWaitMs} from '../grace.js';

/**
 * An attempt's cgroup: the supervisor moves itself into its leaf `supervisor`, so every process it (or a worker
 * thread) forks outside a supervised tree is born there; leaks are moved to a `leaked-N` sibling and killed there.
 */
export interface AttemptCgroup {
	dir: string;
	leaf: TreeCgroup;
	/** Where the supervisor was, and returns to. */
	home: string;
}

/** Creates `<base>/attempt-<id>/supervisor` and moves the whole supervisor process (every thread) into it. */
export function enterAttemptCgroup(base: {dir: string; home: string}): AttemptCgroup {
	const dir = path.join(base.dir, `attempt-${randomUUID().slice(0, 8)}`);
	const leaf = {dir: path.join(dir, 'supervisor')};
	mkdirSync(leaf.dir, {recursive: true});
	try {
		writeFileSync(path.join(leaf.dir, 'cgroup.procs'), String(process.pid));
	} catch (error) {
		removeQuietly(leaf.dir);
		removeQuietly(dir);
		throw new Error(`cannot move the supervisor into ${leaf.dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
	}
	return {dir, leaf, home: base.home};
}

/** Every process in the leaf except the supervisor itself. */
export function foreignMembers(attempt: AttemptCgroup): number[] {
	return cgroupMembers(attempt.leaf).filter(pid => pid !== process.pid);
}

const moveRounds = 20;
/**
 * Moves the pids `pick` chooses out of the leaf into a fresh quarantine cgroup until none is left (a child forked
 * during a move is caught by the next round), then ends them all with one `cgroup.kill`. Returns the survivors.
 */
export async function killForeign(attempt: AttemptCgroup, pick: (pids: number[]) => number[]): Promise<number[]> {
	const quarantine = {dir: path.join(attempt.dir, `leaked-${randomUUID().slice(0, 8)}`)};
	mkdirSync(quarantine.dir);
	for (let round = 0; round < moveRounds; round += 1) {
		const pids = pick(foreignMembers(attempt));
		if (pids.length === 0) break;
		for (const pid of pids) moveQuietly(quarantine, pid);
	}
	killCgroup(quarantine);
	await waitPopulated(quarantine, false, killWaitMs);
	const survivors = [...cgroupMembers(quarantine), ...pick(foreignMembers(attempt))];
	removeQuietly(quarantine.dir);
	return survivors;
}

/**
 * The synchronous kill for an exit that cannot wait: every process in the attempt cgroup `dir` but the supervisor
 * is moved to a quarantine sibling (a few rounds, for children forked meanwhile) and ended there by `cgroup.kill`;
 * leaked quarantines still populated are killed too.
 */
export function killForeignNow(dir: string): void {
	const attempt = {dir, leaf: {dir: path.join(dir, 'supervisor')}, home: dir};
	const quarantine = {dir: path.join(dir, `leaked-${randomUUID().slice(0, 8)}`)};
	mkdirSync(quarantine.dir);
	for (let round = 0; round < moveRounds; round += 1) {
		const pids = foreignMembers(attempt);
		if (pids.length === 0) break;
		for (const pid of pids) moveQuietly(quarantine, pid);
	}
	for (const entry of safeEntries(dir)) if (entry.startsWith('leaked-')) killCgroup({dir: path.join(dir, entry)});
}

/** Puts the supervisor back where it was and removes the attempt's cgroups (one still holding a process stays, visible). */
export function leaveAttemptCgroup(attempt: AttemptCgroup): void {
	writeFileSync(path.join(attempt.home, 'cgroup.procs'), String(process.pid));
	for (const entry of safeEntries(attempt.dir)) removeQuietly(path.join(attempt.dir, entry));
	removeQuietly(attempt.dir);
}

function moveQuietly(cgroup: TreeCgroup, pid: number): void {
	try {
		writeFileSync(path.join(cgroup.dir, 'cgroup.procs'), String(pid));
	} catch {
		// Gone since it was listed: nothing to end.
	}
}

function safeEntries(dir: string): string[] {
	try {
		return readdirSync(dir, {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => entry.name);
	} catch {
		return [];
	}
}
