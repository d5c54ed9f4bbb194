import {closeSync, openSync, readdirSync, readFileSync, readSync} from 'node:fs';

/** What `/proc/<pid>/stat` says about one process. */
export interface ProcStat {
	pid: number;
	comm: string;
	state: string;
	ppid: number;
	pgid: number;
	sid: number;
	/** Clock ticks since boot: with the pid, the identity of a process across pid reuse. */
	startTime: number;
}

/** A stat line is a few hundred bytes; one shared buffer keeps a scan to open, read, close per process. */
const statBuffer = Buffer.alloc(4096);

/** A small /proc file in one read (readFileSync also stats it and reads again for the end), or null when it is gone. */
function readProcFile(path: string): string | null {
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch {
		return null;
	}
	try {
		const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
		return length < statBuffer.length ? statBuffer.toString('latin1', 0, length) : readFileSync(path, 'latin1');
	} catch {
		return null;
	} finally {
		closeSync(fd);
	}
}

/** Reads one process's stat line, or null when the pid is gone. */
export function readStat(pid: number): ProcStat | null {
	const text = readProcFile(`/proc/${pid}/stat`);
	if (text === null) return null;
	// The command name may itself hold spaces and parentheses: split after the last ')'.
	const close = text.lastIndexOf(')');
	const fields = text.slice(close + 2).split(' ');
	return {
		pid,
		comm: text.slice(text.indexOf('(') + 1, close),
		state: fields[0] ?? '?',
		ppid: Number(fields[1]),
		pgid: Number(fields[2]),
		sid: Number(fields[3]),
		startTime: Number(fields[19]),
	};
}

/** A zombie or a dead task has finished running; only its parent's wait is missing. */
export function isRunning(stat: ProcStat | null): stat is ProcStat {
	return stat !== null && stat.state !== 'Z' && stat.state !== 'X' && stat.state !== 'x';
}

export function listPids(): number[] {
	const pids: number[] = [];
	for (const name of readdirSync('/proc')) {
		const pid = Number(name);
		if (Number.isInteger(pid) && pid > 0) pids.push(pid);
	}
	return pids;
}

/** Every running process, read once. */
export function readTable(): ProcStat[] {
	const table: ProcStat[] = [];
	for (const pid of listPids()) {
		const stat = readStat(pid);
		if (isRunning(stat)) table.push(stat);
	}
	return table;
}

/**
 * The pid the kernel handed out last (the fifth field of /proc/loadavg), or null when unreadable. While it is
 * unchanged no process or thread was created, so a scan for new processes can be skipped.
 */
export function lastCreatedPid(): number | null {
	const last = Number(readProcFile('/proc/loadavg')?.trim().split(' ')[4]);
	return Number.isInteger(last) ? last : null;
}

/** This boot's id (`/proc/sys/kernel/random/boot_id`), or null when unreadable: start times count from boot, so they name a process only within one boot. */
export function readBootId(): string | null {
	return readProcFile('/proc/sys/kernel/random/boot_id')?.trim() ?? null;
}

/** The harness-lab marker entries (`HLAB_…=value`) in a process's environment, or null when it cannot be read now. */
function readMarkers(pid: number): Set<string> | null {
	let environ: string;
	try {
		environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
	} catch {
		return null;
	}
	return new Set(environ.split('\0').filter(entry => entry.startsWith('HLAB_')));
}

/**
 * Markers by process (pid and start time). A process gets markers only from the parent that forked it, so what was
 * read once stays true for that process: a later exec that drops a marker leaves a descendant, which is still a member.
 * An unreadable environment (a process in the middle of exec) is never cached.
 */
const markerCache = new Map<number, {startTime: number; markers: Set<string>}>();
const markerCacheLimit = 8192;

/** Whether the process's environment holds exactly `entry` (`KEY=value`, KEY starting with HLAB_). */
export function carriesMarker(stat: ProcStat, entry: string): boolean {
	if (!entry.startsWith('HLAB_')) throw new Error(`a marker entry must start with HLAB_, got ${entry}`);
	return markersOf(stat)?.has(entry) ?? false;
}

/** Whether any marker entry in the process's environment starts with `prefix` (such as `HLAB_TREE_`). */
export function carriesMarkerLike(stat: ProcStat, prefix: string): boolean {
	return [...markersOf(stat) ?? []].some(entry => entry.startsWith(prefix));
}

function markersOf(stat: ProcStat): Set<string> | null {
	const cached = markerCache.get(stat.pid);
	if (cached !== undefined && cached.startTime === stat.startTime) return cached.markers;
	const markers = readMarkers(stat.pid);
	if (markers === null) return null;
	if (markerCache.size >= markerCacheLimit) markerCache.clear();
	markerCache.set(stat.pid, {startTime: stat.startTime, markers});
	return markers;
}

let nextTable: Promise<ProcStat[]> | null = null;

/** A table read after this call; callers in the same turn of the event loop share one read. */
export function freshTable(): Promise<ProcStat[]> {
	nextTable ??= new Promise(resolve => setImmediate(() => {
		nextTable = null;
		resolve(readTable());
	}));
	return nextTable;
}

/** A process's arguments from /proc/<pid>/cmdline, or null when it is gone or has none (a zombie, a kernel thread). */
export function readArgv(pid: number): string[] | null {
	let text: string;
	try {
		text = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
	} catch {
		return null;
	}
	const argv = text.split('\0');
	if (argv.at(-1) === '') argv.pop();
	return argv.length === 0 ? null : argv;
}
