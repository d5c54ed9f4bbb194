import {existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {isMainThread} from 'node:worker_threads';

/** Where this supervisor may create tree cgroups, or why it may not. */
/** `home` is the cgroup the supervisor was in when it started, where an attempt puts it back. */
export type CgroupBase = {ok: true; dir: string; home: string} | {ok: false; reason: string};

let found: CgroupBase | undefined;

/**
 * The cgroup v2 directory `hlab-<pid>` under the supervisor's own cgroup, created on first use.
 * Trees go in its children; the supervisor stays where it is, so this works as root or in a delegated subtree.
 */
export function cgroupBase(): CgroupBase {
	found ??= createBase();
	return found;
}

/**
 * Makes `dir` (a sub-base another supervisor process created, see `createSubBase`) this process's base: the spawner
 * creates its trees there, where the supervisor can end them all with one `cgroup.kill`. Called before any tree.
 */
export function adoptCgroupBase(dir: string, home: string): void {
	found = {ok: true, dir, home};
}

/** A child cgroup of this process's base with the controllers enabled, for trees another process creates; null without a base. */
export function createSubBase(name: string): string | null {
	const base = cgroupBase();
	if (!base.ok) return null;
	const dir = path.join(base.dir, name);
	mkdirSync(dir);
	enableControllers(dir);
	return dir;
}

/** Removes a sub-base and the empty cgroups in it, deepest first; false when one still holds a process. */
export function removeSubBase(dir: string): boolean {
	removeCgroupTree(dir);
	return !existsSync(dir);
}

function createBase(): CgroupBase {
	const place = basePlace();
	if ('reason' in place) return place;
	const {parent, dir} = place;
	removeStaleBases(parent);
	try {
		mkdirSync(dir, {recursive: true});
	} catch (error) {
		return {ok: false, reason: `cannot create ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`};
	}
	// cgroup.kill (Linux 5.14) is what makes the end of a tree one atomic step.
	if (!existsSync(path.join(dir, 'cgroup.kill'))) {
		removeQuietly(dir);
		return {ok: false, reason: `${dir} has no cgroup.kill (Linux 5.14 or later is needed)`};
	}
	enableControllers(dir);
	// The main thread's own hook (below) removes it at the process's exit; a thread that ends normally removes what it can.
	if (!isMainThread) process.once('exit', () => removeCgroupTree(dir));
	return {ok: true, dir, home: parent};
}

/** Where this process's base is (or would be): `hlab-<pid>` beside the cgroup the process started in. */
function basePlace(): {parent: string; dir: string} | {ok: false; reason: string} {
	const mount = unifiedMount();
	if (mount === null) return {ok: false, reason: 'no cgroup v2 (unified) hierarchy is mounted'};
	const own = ownCgroup();
	if (own === null) return {ok: false, reason: 'this process is in no cgroup v2 (no 0:: line in /proc/self/cgroup)'};
	// Inside an attempt the supervisor sits in its own base (every worker thread computes the base again): use the one above.
	const parent = path.join(mount, own.split(`/hlab-${process.pid}/`)[0]!);
	return {parent, dir: path.join(parent, `hlab-${process.pid}`)};
}

// A worker thread may create the base (a task's tool command) and then be terminated, which runs none of its exit
// hooks: the process's main thread removes what is left of it (empty cgroups only) when the process exits.
if (isMainThread) {
	process.once('exit', () => {
		const place = basePlace();
		if ('dir' in place) removeCgroupTree(place.dir);
	});
}

/** The mount point of the cgroup2 file system, from /proc/self/mountinfo. */
function unifiedMount(): string | null {
	let text: string;
	try {
		text = readFileSync('/proc/self/mountinfo', 'utf8');
	} catch {
		return null;
	}
	for (const line of text.split('\n')) {
		const [mountFields, fsFields] = line.split(' - ');
		if (fsFields?.split(' ')[0] !== 'cgroup2') continue;
		const point = mountFields!.split(' ')[4];
		// mountinfo escapes spaces and other bytes as octal.
		if (point !== undefined) return point.replaceAll(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
	}
	return null;
}

function ownCgroup(): string | null {
	try {
		const line = readFileSync('/proc/self/cgroup', 'utf8').split('\n').find(entry => entry.startsWith('0::'));
		return line === undefined ? null : line.slice(3);
	} catch {
		return null;
	}
}

/** Asks for the controllers that measure memory and processes; without them those figures stay null. */
function enableControllers(dir: string): void {
	for (const controller of ['cpu', 'memory', 'pids']) {
		try {
			writeFileSync(path.join(dir, 'cgroup.subtree_control'), `+${controller}`);
		} catch {
			// Not delegated to us (or bound to a v1 hierarchy): its figures will be null.
		}
	}
}

/** Bases left by supervisors that were killed: their empty tree cgroups and the base go; a populated one stays. */
function removeStaleBases(parent: string): void {
	let names: string[];
	try {
		names = readdirSync(parent);
	} catch {
		return;
	}
	for (const name of names) {
		const owner = /^hlab-(\d+)$/.exec(name)?.[1];
		if (owner !== undefined && Number(owner) !== process.pid && !isAlive(Number(owner))) removeCgroupTree(path.join(parent, name));
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Removes a cgroup and every empty cgroup below it (a process inside may have made its own), deepest first; a populated
 * one stays and says so by existing. True when `dir` is gone.
 */
export function removeCgroupTree(dir: string): boolean {
	try {
		for (const entry of readdirSync(dir, {withFileTypes: true})) if (entry.isDirectory()) removeCgroupTree(path.join(dir, entry.name));
	} catch {
		return false;
	}
	return removeQuietly(dir);
}

export function removeQuietly(dir: string): boolean {
	try {
		rmdirSync(dir);
		return true;
	} catch {
		return false;
	}
}
