import {randomUUID} from 'node:crypto';
import {mkdirSync, readdirSync, readFileSync, watch, writeFileSync, type FSWatcher} from 'node:fs';
import path from 'node:path';
import type {TreeResources} from '../process-record.js';
import {shellQuote} from '../shell-quote.js';
import type {ShimStep} from '../start-shim.js';
import {removeCgroupTree} from './cgroup-base.js';

/** One supervised tree's own cgroup. */
export interface TreeCgroup {
	dir: string;
}

export function createTreeCgroup(base: string): TreeCgroup {
	const dir = path.join(base, `tree-${randomUUID().slice(0, 8)}`);
	mkdirSync(dir);
	return {dir};
}

/**
 * The shim's step that moves it into the cgroup before it execs the command: every process the command ever forks is
 * born inside.
 */
export function enterStep(tree: TreeCgroup): ShimStep {
	return {command: `echo $$ > ${shellQuote(path.join(tree.dir, 'cgroup.procs'))}`, failure: `cannot enter cgroup ${tree.dir}`};
}

/** Pids in the cgroup now (empty once it is gone). */
export function cgroupMembers(tree: TreeCgroup): number[] {
	return readLines(tree, 'cgroup.procs').map(Number).filter(pid => pid > 0);
}

/** Pids in the cgroup and in every cgroup below it (a supervisor inside may have made its own): what cgroup.kill ends. */
export function subtreeMembers(tree: TreeCgroup): number[] {
	return [...cgroupMembers(tree), ...nestedMembers(tree)];
}

/** Pids in the cgroups below this one, not in it: those a supervisor inside moved into cgroups of its own. */
export function nestedMembers(tree: TreeCgroup): number[] {
	const nested = readdirSync(tree.dir, {withFileTypes: true}).filter(entry => entry.isDirectory());
	return nested.flatMap(entry => subtreeMembers({dir: path.join(tree.dir, entry.name)}));
}

export function isPopulated(tree: TreeCgroup): boolean {
	return /^populated 1$/m.test(readLines(tree, 'cgroup.events').join('\n'));
}

/** Writing 1 to cgroup.kill SIGKILLs every process in the cgroup at once, including ones forking right now. */
export function killCgroup(tree: TreeCgroup): void {
	writeFileSync(path.join(tree.dir, 'cgroup.kill'), '1');
}

/**
 * Resolves once `cgroup.events` says `populated` equals `wanted` (true), or at the timeout or `until` (false).
 * The kernel notifies changes to cgroup.events; a short poll covers a missed notification.
 */
export function waitPopulated(tree: TreeCgroup, wanted: boolean, waitMs: number, until?: Promise<unknown>): Promise<boolean> {
	if (isPopulated(tree) === wanted) return Promise.resolve(true);
	return new Promise(resolve => {
		let watcher: FSWatcher | undefined;
		const finish = (reached: boolean): void => {
			clearInterval(poll);
			clearTimeout(timer);
			watcher?.close();
			resolve(reached);
		};
		const check = (): void => {
			if (isPopulated(tree) === wanted) finish(true);
		};
		const poll = setInterval(check, 5);
		const timer = setTimeout(() => finish(isPopulated(tree) === wanted), waitMs);
		try {
			watcher = watch(path.join(tree.dir, 'cgroup.events'), check);
		} catch {
			// The poll alone still answers.
		}
		void until?.then(() => finish(isPopulated(tree) === wanted));
		check();
	});
}

/** CPU time from cpu.stat (always there in v2), peaks where the memory and pids controllers are enabled. */
export function readResources(tree: TreeCgroup): TreeResources {
	const cpu = new Map(readLines(tree, 'cpu.stat').map(line => line.split(' ') as [string, string]));
	const micros = (key: string): number | null => (cpu.has(key) ? Number(cpu.get(key)) / 1000 : null);
	return {
		cpu_user_ms: micros('user_usec'),
		cpu_system_ms: micros('system_usec'),
		peak_memory_bytes: readNumber(tree, 'memory.peak'),
		peak_processes: readNumber(tree, 'pids.peak'),
	};
}

/** Sets the tree's memory.max; false where the memory controller is not enabled for it (no such file) or refuses. */
export function limitCgroupMemory(tree: TreeCgroup, bytes: number): boolean {
	try {
		writeFileSync(path.join(tree.dir, 'memory.max'), String(bytes));
		return true;
	} catch {
		return false;
	}
}

/** Sets the tree's cpu.max; false where the cpu controller is not enabled for it (no such file) or refuses. */
export function limitCgroupCpu(tree: TreeCgroup, value: string): boolean {
	try {
		writeFileSync(path.join(tree.dir, 'cpu.max'), value);
		return true;
	} catch {
		return false;
	}
}

/** How many of the tree's processes the OOM killer ended (memory.events), null without the memory controller. */
export function oomKills(tree: TreeCgroup): number | null {
	const line = readLines(tree, 'memory.events').find(entry => entry.startsWith('oom_kill '));
	return line === undefined ? null : Number(line.slice('oom_kill '.length));
}

/** Removes an empty tree cgroup, with any cgroup its processes made below it; false when it still holds processes (it then stays, visible). */
export function removeTreeCgroup(tree: TreeCgroup): boolean {
	return removeCgroupTree(tree.dir);
}

function readNumber(tree: TreeCgroup, file: string): number | null {
	const [value] = readLines(tree, file);
	return value === undefined || !/^\d+$/.test(value) ? null : Number(value);
}

function readLines(tree: TreeCgroup, file: string): string[] {
	try {
		return readFileSync(path.join(tree.dir, file), 'utf8').split('\n').filter(Boolean);
	} catch {
		return [];
	}
}
