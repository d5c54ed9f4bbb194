import type {ChildProcess} from 'node:child_process';
import {randomUUID} from 'node:crypto';
import {execa} from 'execa';
import {limitOutput, type OutputSink} from './byte-limit.js';
import {chooseContainment, type Containment} from './containment.js';
import {whyNotExecutable} from './find-executable.js';
import {signalGroup} from './kill-group.js';
import {readStat} from './proc-table.js';
import {isStillRunning} from './process-identity.js';
import {blankRecord, type KilledProcess, type ProcessFailure, type ProcessRecord} from './process-record.js';
import {settleStreams} from './settle-streams.js';
import type {ShimStep} from './start-shim.js';
import {dataLimitStep, type MemoryLimit} from './memory-limit.js';
import {openContainer, type TreeContainer} from './tree-container.js';
import {checkSandbox} from './sandbox/check-sandbox.js';
import {sandboxArgv} from './sandbox/sandbox-argv.js';
import type {Sandbox} from './sandbox/sandbox-options.js';
import {graceMs} from './grace.js';

/** Every tree's marker key starts so: `HLAB_TREE_<uuid>=1`. */
export const treeMarkerPrefix = 'HLAB_TREE_';

export interface RunOptions {
	/** The executable and its arguments; the executable is looked up on PATH like execvp. */
	argv: string[];
	cwd?: string;
	/** Added to (or, with `extendEnv: false`, replacing) the supervisor's environment. */
	env?: Record<string, string | undefined>;
	extendEnv?: boolean;
	/** Written to stdin, which is then closed. Without it stdin is `/dev/null` unless `stdin: 'inherit'`. */
	input?: string | Buffer;
	stdin?: 'ignore' | 'inherit';
	/** The hard deadline, in milliseconds from spawn: the group is then ended (SIGTERM, the grace, SIGKILL). Null or absent: none. */
	deadlineMs?: number | null;
	/** From SIGTERM to SIGKILL of the group; default the one grace (`grace.ts`). */
	graceMs?: number;
	stdoutLimit?: number | null;
	stderrLimit?: number | null;
	stdout?: OutputSink;
	stderr?: OutputSink;
	signal?: AbortSignal;
	/** Aborted after `signal` (a second interrupt): the group is sent SIGTERM once more, so a supervisor inside moves to its faster stop. */
	urge?: AbortSignal;
	/** Called with the pid and pgid right after spawn, so a caller can register the group. */
	onSpawn?: (pid: number) => void;
	/**
	 * Poll the tree's ancestry while it runs (default true; the cgroup backend never needs to). Off only for a
	 * long-lived service of harness-lab's own that starts no process: its group and marker still find what it leaves.
	 */
	trackDescendants?: boolean;
	/** The backend that holds the tree; default: `HLAB_CONTAINMENT`, else the strongest available. */
	containment?: Containment;
	/**
	 * Bound the tree's memory: its cgroup's memory.max (all its processes together) where the memory controller is
	 * delegated, else RLIMIT_DATA on the leader, which every child inherits (each process on its own). Null or absent: none.
	 */
	memoryLimitBytes?: number | null;
	/** Bound the tree's CPU to this many CPUs' worth of time: its cgroup's cpu.max where the cpu controller is enabled; elsewhere it is not bounded (the record says so). */
	cpuLimit?: number | null;
	/** Run the command under bubblewrap; if bwrap is unusable the run fails to start, it never runs unsandboxed. */
	sandbox?: Sandbox;
	/** Test-only: disable the sweep of members that left the group. */
	sweep?: boolean;
	/** The tree's marker key (`HLAB_TREE_<id>`); default a fresh one. The spawner's client names it, to find the tree if the spawner dies. */
	markerKey?: string;
	/** Opens a Node IPC channel to the command (advanced serialization, so Buffers pass) and hands over its child process right after spawn. */
	ipc?: (child: ChildProcess) => void;
}

export interface GroupRun {
	record: ProcessRecord;
	/** Kept bytes for `buffer` sinks (the default); null for other sinks. */
	stdout: Buffer | null;
	stderr: Buffer | null;
}

/**
 * Runs a command as the leader of a new process group (and session) under a deadline and byte limits,
 * and ends every process of its tree before returning, whatever way it ended.
 */
export async function runInGroup(options: RunOptions): Promise<GroupRun> {
	validate(options);
	const [file, ...args] = options.argv as [string, ...string[]];
	const cwd = options.cwd ?? process.cwd();
	const containment = chooseContainment(options.containment);
	const markerKey = options.markerKey ?? newTreeMarkerKey();
	const startedAt = new Date();
	const t0 = performance.now();
	let failure: ProcessFailure | null = null;
	let failureMessage: string | null = null;
	let fail!: (reason: ProcessFailure) => void;
	const failed = new Promise<ProcessFailure>(resolve => {
		fail = reason => {
			if (failure !== null) return;
			failure = reason;
			resolve(reason);
		};
	});
	const stdout = limitOutput(options.stdout ?? {kind: 'buffer'}, options.stdoutLimit ?? null, () => fail('stdout_limit'));
	const stderr = limitOutput(options.stderr ?? {kind: 'buffer'}, options.stderrLimit ?? null, () => fail('stderr_limit'));

	const finish = (fields: Partial<ProcessRecord>): GroupRun => ({
		record: {
			...blankRecord({
				containment,
				argv: options.argv,
				cwd,
				marker: `${markerKey}=1`,
				started_at: startedAt.toISOString(),
				wall_ms: performance.now() - t0,
				timed_out: failure === 'timeout',
				failure,
				failure_message: failureMessage,
				stdout: {bytes_seen: stdout.bytesSeen(), bytes_kept: stdout.bytesKept(), limit: options.stdoutLimit ?? null, overflowed: stdout.overflowed()},
				stderr: {bytes_seen: stderr.bytesSeen(), bytes_kept: stderr.bytesKept(), limit: options.stderrLimit ?? null, overflowed: stderr.overflowed()},
				sandbox: options.sandbox ?? null,
			}),
			...fields,
		},
		stdout: stdout.buffer(),
		stderr: stderr.buffer(),
	});

	if (options.signal?.aborted) {
		fail('aborted');
		failureMessage = 'aborted before start';
		return finish({});
	}

	const env = {...options.env, [markerKey]: '1'};
	const searchPath = 'PATH' in env ? env.PATH : (options.extendEnv ?? true) ? process.env.PATH : undefined;
	// Behind a shim, a missing executable would fail at the shim's exec, after the start: find out before.
	const shimmed = containment === 'cgroup' || options.memoryLimitBytes != null;
	const notExecutable = shimmed ? whyNotExecutable(file, cwd, searchPath) : null;
	if (notExecutable !== null) {
		fail('spawn');
		failureMessage = `cannot start ${file}: spawn ${file} ${notExecutable}`;
		return finish({});
	}
	const sandboxed = inSandbox(options.argv, options.sandbox, cwd);
	if ('reason' in sandboxed) {
		fail('spawn');
		failureMessage = `cannot start ${file}: ${sandboxed.reason}`;
		return finish({});
	}
	const container = openContainer(containment, `${markerKey}=1`, options.trackDescendants ?? true);
	const bounded = boundMemory(container, options.memoryLimitBytes ?? null);
	// Before the spawn, as the memory bound: the tree's first process already runs under it.
	const cpuBounded = options.cpuLimit != null && container.limitCpu(options.cpuLimit);
	const [spawnFile, ...spawnArgs] = container.wrap(sandboxed.argv, bounded.steps) as [string, ...string[]];
	const subprocess = execa(spawnFile, spawnArgs, {
		cwd,
		env,
		extendEnv: options.extendEnv ?? true,
		detached: true,
		buffer: false,
		reject: false,
		cleanup: false,
		forceKillAfterDelay: false,
		encoding: 'buffer',
		stripFinalNewline: false,
		...(options.input === undefined ? {stdin: options.stdin ?? 'ignore'} : {input: options.input}),
		stdout: 'pipe',
		stderr: 'pipe',
		...(options.ipc === undefined ? {} : {ipc: true, serialization: 'advanced' as const}),
	});
	const pid = subprocess.pid;
	if (pid === undefined) {
		const result = await subprocess;
		container.release();
		fail('spawn');
		failureMessage = `cannot start ${file}: ${result.originalMessage ?? result.message}`;
		return finish({});
	}
	const exited = new Promise<{code: number | null; signal: NodeJS.Signals | null; at: number}>(resolve => {
		subprocess.nodeChildProcess.once('exit', (code, signal) => resolve({code, signal, at: performance.now()}));
	});
	const result = subprocess.then(() => undefined, () => undefined);
	subprocess.stdout!.pipe(stdout.writable);
	subprocess.stderr!.pipe(stderr.writable);
	const leaderStat = readStat(pid);
	const leader = {pid, startTime: leaderStat?.startTime ?? -1, comm: leaderStat?.comm ?? file};
	container.started(leader, exited);
	options.onSpawn?.(pid);
	options.ipc?.(subprocess.nodeChildProcess);

	const deadline = options.deadlineMs == null ? undefined : setTimeout(() => fail('timeout'), options.deadlineMs);
	const onAbort = (): void => fail('aborted');
	options.signal?.addEventListener('abort', onAbort, {once: true});
	const onUrge = (): void => void (isStillRunning(leader) && signalGroupQuietly(pid, 'SIGTERM'));
	options.urge?.addEventListener('abort', onUrge, {once: true});

	const first = await Promise.race([exited.then(() => null), failed]);
	if (first === 'timeout') failureMessage = `deadline of ${options.deadlineMs} ms reached`;
	if (first === 'stdout_limit' || first === 'stderr_limit') {
		failureMessage = `${first === 'stdout_limit' ? 'stdout' : 'stderr'} exceeded its limit of ${first === 'stdout_limit' ? options.stdoutLimit : options.stderrLimit} bytes`;
	}
	if (first === 'aborted') failureMessage = 'aborted by the supervisor';
	const cleanupStart = performance.now();
	const stop = await container.stop({graceMs: options.graceMs ?? graceMs, sweep: options.sweep, leaderEnded: first === null});
	const exit = await exited;
	const cleanupMs = performance.now() - cleanupStart;
	clearTimeout(deadline);
	options.signal?.removeEventListener('abort', onAbort);
	options.urge?.removeEventListener('abort', onUrge);
	const resources = container.resources();
	const memoryLimit = bounded.by === null ? null : {bytes: options.memoryLimitBytes!, by: bounded.by, oom_kills: container.oomKills()};
	const cpuLimit = cpuBounded ? {cpus: options.cpuLimit!, by: 'cgroup' as const} : null;
	container.release();
	// A pipe held open by something we could not find must not hang the caller.
	await settleStreams([subprocess.stdout!, subprocess.stderr!], [stdout.writable, stderr.writable]);
	await result;
	return finish({
		pid,
		pgid: pid,
		wall_ms: exit.at - t0,
		exit_code: exit.code,
		signal: exit.signal,
		killed: stop.killed,
		leaks: leaksOf(stop.killed, pid, first === null),
		survivors: stop.survivors,
		cleanup_ms: cleanupMs,
		resources,
		memory_limit: memoryLimit,
		cpu_limit: cpuLimit,
	});
}

/** A fresh tree marker key. */
export function newTreeMarkerKey(): string {
	return `${treeMarkerPrefix}${randomUUID().replaceAll('-', '')}`;
}

/**
 * A leak is a process cleanup had to end that outlived the command (it had exited by itself) or had left its group.
 * Members ended at a deadline, a limit or an abort were still part of the running command.
 */
function leaksOf(killed: KilledProcess[], leaderPid: number, leaderEnded: boolean): number[] {
	const pids = killed.filter(entry => entry.pid !== leaderPid && (leaderEnded || !entry.in_group)).map(entry => entry.pid);
	return [...new Set(pids)];
}

function signalGroupQuietly(pgid: number, signal: NodeJS.Signals): boolean {
	try {
		return signalGroup(pgid, signal);
	} catch {
		// A member we may not signal: the stop's own SIGKILL after the grace still comes.
		return false;
	}
}

/** The tree's memory bound: its cgroup's where it can take one, else RLIMIT_DATA set by its shim (outside any sandbox, so bwrap inherits it too). */
function boundMemory(container: TreeContainer, bytes: number | null): {steps: ShimStep[]; by: MemoryLimit['by'] | null} {
	if (bytes === null) return {steps: [], by: null};
	if (container.limitMemory(bytes)) return {steps: [], by: 'cgroup'};
	return {steps: [dataLimitStep(bytes)], by: 'rlimit_data'};
}

/** The argv behind bubblewrap when a sandbox is asked for, or why it cannot be had. */
function inSandbox(argv: string[], sandbox: Sandbox | undefined, cwd: string): {argv: string[]} | {reason: string} {
	if (sandbox === undefined) return {argv};
	const check = checkSandbox();
	if (!check.ok) return {reason: `the sandbox is unavailable: ${check.reason}`};
	return {argv: sandboxArgv(check.bwrap, sandbox, cwd, argv)};
}

function validate(options: RunOptions): void {
	if (options.argv.length === 0 || options.argv[0] === '') throw new TypeError('a command is required');
	for (const [name, value] of [['deadlineMs', options.deadlineMs], ['graceMs', options.graceMs], ['stdoutLimit', options.stdoutLimit], ['stderrLimit', options.stderrLimit]] as const) {
		if (value != null && (!Number.isFinite(value) || value < 0)) throw new RangeError(`${name} must be a non-negative number, got ${value}`);
	}
	if (options.markerKey !== undefined && !/^HLAB_TREE_[0-9a-f]{32}$/.test(options.markerKey)) throw new TypeError(`markerKey must be ${treeMarkerPrefix} and 32 hex digits, got ${options.markerKey}`);
	const memory = options.memoryLimitBytes;
	// No process starts in zero bytes: a limit of 0 is a mistake, not a very strict limit.
	if (memory != null && !(Number.isSafeInteger(memory) && memory > 0)) throw new RangeError(`memoryLimitBytes must be a positive whole number, got ${memory}`);
	if (options.cpuLimit != null && !(Number.isFinite(options.cpuLimit) && options.cpuLimit > 0)) throw new RangeError(`cpuLimit must be a positive number, got ${options.cpuLimit}`);
}
