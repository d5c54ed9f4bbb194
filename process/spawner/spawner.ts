import type {ChildProcess} from 'node:child_process';
import {randomUUID} from 'node:crypto';
import {fileURLToPath} from 'node:url';
import {cgroupBase, createSubBase, removeSubBase} from '../cgroup/cgroup-base.js';
import {killCgroup, waitPopulated} from '../cgroup/tree-cgroup.js';
import {chooseContainment, type Containment} from '../containment.js';
import {graceMs as oneGraceMs, killWaitMs, whenHurried} from '../grace.js';
import {findMarked, killMarked} from '../kill-marked.js';
import {readTable} from '../proc-table.js';
import {blankRecord, type ProcessRecord} from '../process-record.js';
import {newTreeMarkerKey, runInGroup, type GroupRun, type RunOptions} from '../run-group.js';
import type {FromSpawner, LaunchOptions, ToSpawner} from './spawner-protocol.js';

/** runInGroup, or the same run done by a spawner: what a host or agent task launches through. */
export type Launch = (options: RunOptions) => Promise<GroupRun>;

export interface Spawner {
	/** runInGroup in the spawner: the same record; `failure: 'spawner'` if the spawner ended or hung first. */
	run: Launch;
	/** Stops the spawner (a launch still running is ended with it). */
	close(): Promise<void>;
}

const entry = fileURLToPath(new URL('./spawner-main.js', import.meta.url));
/** Past a launch's own deadline and cleanup, this much more without an answer and the spawner is taken for hung. */
const answerSlackMs = 10_000;
const readyWithinMs = 30_000;
/**
 * After each fork every page the spawner writes takes a copy-on-write fault, dear under virtualisation: a 1 MiB young
 * generation keeps the pages it writes between launches few (200 hosts at c8: ~3% less wall and CPU).
 */
const nodeFlags = ['--max-semi-space-size=1'];

/**
 * Starts a spawner: a small Node process, supervised by runInGroup like any child, that forks the launches so the
 * supervisor's main thread never copies its own page tables for them. Under cgroup containment its trees go in a
 * sub-base of the supervisor's own (`spawner-<id>`), so if it dies one `cgroup.kill` ends them all; elsewhere each
 * launch's marker, named here, finds them. A spawner that died is replaced at the next launch.
 */
export async function startSpawner(options: {answerSlackMs?: number} = {}): Promise<Spawner> {
	const slackMs = options.answerSlackMs ?? answerSlackMs;
	let current = openInstance(slackMs);
	await current.ready;
	let closed = false;
	return {
		async run(options) {
			if (closed) throw new Error('the spawner is closed');
			if (current.lost() !== null) {
				current = openInstance(slackMs);
				await current.ready;
			}
			// Aborted already, nothing starts: runInGroup says so here without a fork.
			if (options.signal?.aborted) return runInGroup(options);
			return current.launch(options);
		},
		async close() {
			closed = true;
			await current.close();
		},
	};
}

interface InFlight {
	launch: LaunchOptions;
	startedAt: Date;
	t0: number;
	settle(run: GroupRun | Error): void;
}

interface Instance {
	ready: Promise<void>;
	launch(options: RunOptions): Promise<GroupRun>;
	/** Why this spawner is gone, or null while it serves. */
	lost(): string | null;
	close(): Promise<void>;
}

function openInstance(slackMs: number): Instance {
	const base = cgroupBase();
	const subBase = base.ok ? createSubBase(`spawner-${randomUUID().slice(0, 8)}`) : null;
	const stop = new AbortController();
	const inFlight = new Map<number, InFlight>();
	let child: ChildProcess | null = null;
	let nextId = 0;
	let lostReason: string | null = null;
	let markReady!: () => void;
	const ready = new Promise<void>(resolve => (markReady = resolve));
	const post = (message: ToSpawner): void => {
		try {
			child?.send(message);
		} catch (error) {
			void lose(`the spawner's channel refused a message: ${(error as Error).message}`);
		}
	};
	// Called at once when the stop has already hurried: the spawner is told as soon as it listens.
	const unhurry = whenHurried(() => void ready.then(() => post({kind: 'hurry'})));
	const onMessage = (message: FromSpawner): void => {
		if (message.kind === 'ready') return markReady();
		const waiting = inFlight.get(message.id);
		if (waiting === undefined) return;
		inFlight.delete(message.id);
		if (message.kind === 'error') return waiting.settle(new (errorClass(message.name))(message.message));
		waiting.settle({record: message.run.record, stdout: asBuffer(message.run.stdout), stderr: asBuffer(message.run.stderr)});
	};
	const ended = runInGroup({
		argv: [process.execPath, ...nodeFlags, entry, ...(subBase !== null && base.ok ? [subBase, base.home] : [])],
		ipc: spawned => {
			child = spawned;
			spawned.on('message', onMessage);
			// A spawner without its channel serves nobody: it is ended, and its end says how.
			spawned.once('disconnect', () => stop.abort());
		},
		signal: stop.signal,
		graceMs: 1000,
		stdoutLimit: 64 * 1024,
		stderrLimit: 64 * 1024,
		// It is harness-lab's own service; its launches are in their own trees, found by cgroup or marker.
		trackDescendants: false,
	});
	void ended.then(run => lose(`the spawner (pid ${run.record.pid ?? 'none'}) ${howEnded(run)}`));
	const startTimer = setTimeout(() => void lose(`the spawner did not start within ${readyWithinMs} ms`), readyWithinMs);
	void ready.then(() => clearTimeout(startTimer));

	/** The spawner is gone or hung: it is ended, then every tree it ran, then each launch in flight fails with the reason. */
	async function lose(reason: string): Promise<void> {
		if (lostReason !== null) return;
		lostReason = reason;
		clearTimeout(startTimer);
		unhurry();
		markReady();
		stop.abort();
		await ended;
		const lost = [...inFlight.values()];
		inFlight.clear();
		const cleanupStart = performance.now();
		const survivors = await endTrees(subBase, lost.map(entry => entry.launch.markerKey));
		const cleanupMs = performance.now() - cleanupStart;
		for (const entry of lost) {
			const record = {...lostRecord(entry, `${reason} while the command ran; its tree was ended`), cleanup_ms: cleanupMs, survivors: survivors.get(entry.launch.markerKey) ?? []};
			entry.settle({record, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0)});
		}
		if (subBase !== null) removeSubBase(subBase);
	}

	return {
		ready,
		lost: () => lostReason,
		launch(options) {
			if (lostReason !== null) return Promise.resolve({record: lostRecord(inFlightOf(options), lostReason, false), stdout: Buffer.alloc(0), stderr: Buffer.alloc(0)});
			const id = nextId++;
			const flight = inFlightOf(options);
			return new Promise<GroupRun>((resolve, reject) => {
				const onAbort = (): void => post({kind: 'abort', id});
				const onUrge = (): void => post({kind: 'urge', id});
				// Past the launch's own deadline and its cleanup, a spawner that has not answered is hung.
				const watchdog = options.deadlineMs == null ? undefined : setTimeout(() => void lose(`the spawner did not answer within ${slackMs} ms after the launch's deadline and cleanup`), watchdogMs(options, slackMs));
				flight.settle = run => {
					clearTimeout(watchdog);
					options.signal?.removeEventListener('abort', onAbort);
					options.urge?.removeEventListener('abort', onUrge);
					if (run instanceof Error) reject(run);
					else resolve(run);
				};
				inFlight.set(id, flight);
				post({kind: 'run', id, options: flight.launch});
				options.signal?.addEventListener('abort', onAbort, {once: true});
				options.urge?.addEventListener('abort', onUrge, {once: true});
			});
		},
		async close() {
			await lose('the spawner was closed');
		},
	};
}

/** The launch as data: the supervisor's environment merged here (the spawner's may be older), the backend chosen here. */
function inFlightOf(options: RunOptions): InFlight {
	refuseUnsupported(options);
	const {signal: _signal, urge: _urge, ...rest} = options;
	const launch: LaunchOptions = {
		...rest,
		cwd: options.cwd ?? process.cwd(),
		env: (options.extendEnv ?? true) ? {...process.env, ...options.env} : options.env ?? {},
		extendEnv: false,
		containment: chooseContainment(options.containment),
		markerKey: options.markerKey ?? newTreeMarkerKey(),
	};
	return {launch, startedAt: new Date(), t0: performance.now(), settle: () => undefined};
}

function refuseUnsupported(options: RunOptions): void {
	const streamed = [options.stdout, options.stderr].some(sink => sink !== undefined && sink.kind !== 'buffer');
	if (streamed || options.onSpawn !== undefined || options.ipc !== undefined || options.stdin === 'inherit') {
		throw new TypeError('a launch through the spawner keeps its output in buffers, has no onSpawn or ipc, and no inherited stdin');
	}
}

function watchdogMs(options: RunOptions, slackMs: number): number {
	const grace = options.graceMs ?? oneGraceMs;
	return options.deadlineMs! + grace + killWaitMs + grace + slackMs;
}

/**
 * Every tree the lost spawner ran: its cgroup sub-base at once, then each launch's marker (the other backends, and a
 * check); the pids still carrying a marker after that, by marker key: each launch's survivors.
 */
async function endTrees(subBase: string | null, markerKeys: string[]): Promise<Map<string, number[]>> {
	if (subBase !== null) {
		try {
			killCgroup({dir: subBase});
			await waitPopulated({dir: subBase}, false, killWaitMs);
		} catch {
			// Never created or already removed: nothing of it runs.
		}
	}
	await Promise.all(markerKeys.map(key => killMarked(`${key}=1`)));
	const table = readTable();
	return new Map(markerKeys.map(key => [key, findMarked(`${key}=1`, table).map(stat => stat.pid)]));
}

/** The record of a launch the spawner took and lost (`ran`), or never took: only the first may have written anything. */
function lostRecord(flight: InFlight, message: string, ran = true): ProcessRecord {
	const {launch} = flight;
	// The spawner read the pipes: what it saw went with it; nothing of it is kept.
	const unknown = (limit: number | null | undefined) => ({bytes_seen: ran ? null : 0, bytes_kept: 0, limit: limit ?? null, overflowed: ran ? null : false});
	return blankRecord({
		containment: launch.containment as Containment,
		argv: launch.argv,
		cwd: launch.cwd!,
		marker: `${launch.markerKey}=1`,
		started_at: flight.startedAt.toISOString(),
		wall_ms: performance.now() - flight.t0,
		timed_out: false,
		failure: 'spawner',
		failure_message: message,
		stdout: unknown(launch.stdoutLimit),
		stderr: unknown(launch.stderrLimit),
		sandbox: launch.sandbox ?? null,
	});
}

function howEnded(run: GroupRun): string {
	const {record} = run;
	if (record.failure === 'spawn') return `could not start: ${record.failure_message}`;
	const how = record.signal !== null ? `was killed by ${record.signal}` : `exited with status ${record.exit_code}`;
	const said = run.stderr?.toString('utf8').trim().split('\n').at(-1);
	return said ? `${how} (${said})` : how;
}

/** Advanced serialization hands a Buffer over as a Uint8Array. */
function asBuffer(bytes: Uint8Array | null): Buffer | null {
	return bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function errorClass(name: string): ErrorConstructor {
	if (name === 'TypeError') return TypeError;
	if (name === 'RangeError') return RangeError;
	return Error;
}
