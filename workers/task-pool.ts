import {randomUUID} from 'node:crypto';
import {MessageChannel} from 'node:worker_threads';
import {setTimeout as sleep} from 'node:timers/promises';
import {Piscina} from 'piscina';
import {lastCreatedPid} from '../process/proc-table.js';
import {graceMs, hardDeadline, hurriedGraceMs, whenHurried} from '../process/grace.js';
import type {ProcessIdentity} from '../process/process-identity.js';
import {distPath} from '../files/install-root.js';
import type {TaskControlMessage, TaskJob, TaskJobResult, TaskThreadMessage, WarmUpAnswer} from './task-job.js';
import {findMarked, identifyLeader, killGroups, killMarked} from '../process/kill-marked.js';
import type {PoolSize} from './pool-size.js';

type Ending = {kind: 'deadline' | 'aborted' | 'crash'; message: string};

/** How a task ended in the pool: its thread's answer, or why there was none. */
export type PoolEnding = {kind: 'result'; result: TaskJobResult} | Ending;

export type PoolRun = PoolEnding & {
	/** Monotonic wall time from dispatch to the thread's answer (or its ending), measured here. */
	wall_ms: number;
	/** The worker thread that took the task, null if it never started. */
	thread: number | null;
};

export interface PoolRunOptions {
	/** Interrupts the task cooperatively; its thread is ended only if it does not settle within the grace. */
	signal: AbortSignal;
}

/** A task thread's young generation (V8's default grows to 32 MB a thread); measured, 4 MB costs no visible CPU on one-turn tasks. */
const threadYoungGenerationMb = 4;

/** One task in a thread, as the pool follows it. */
interface InFlight {
	id: string;
	thread: number | null;
	/** Up while the task's candidate code runs synchronously (written by the thread). */
	inCandidateCode: Int32Array;
	/** When the task's hard deadline passes (performance.now()). */
	hardDeadlineAt: number;
	/** Set when its thread is ended: what the task is recorded as. */
	fate: Ending | null;
}

/**
 * A piscina pool of a few worker threads, each running several tasks at once, so that concurrency is tasks in flight,
 * not isolates. A task ends cooperatively (its deadline or an interruption, through one signal in its thread); a thread
 * is ended only when a task's code will not yield, and each other task of that thread is failed naming that task.
 * Whatever way a task ends, nothing it started outlives it.
 */
export class TaskPool {
	readonly #pool: Piscina<TaskJob | {warmup: true}, TaskJobResult | WarmUpAnswer>;
	readonly #inFlight = new Set<InFlight>();
	/** Every thread ended so far, with the task whose code held it, in order. */
	readonly #endings: Array<{at: number; holder: string}> = [];

	constructor(readonly size: PoolSize) {
		this.#pool = new Piscina({
			filename: distPath('workers/task-worker.js'),
			minThreads: size.threads,
			maxThreads: size.threads,
			concurrentTasksPerWorker: size.tasksPerThread,
			// Piscina's default parks a thread in Atomics.wait whenever it has no task, which would freeze a thread's other I/O.
			atomics: 'disabled',
			idleTimeout: 60_000,
			resourceLimits: {maxYoungGenerationSizeMb: threadYoungGenerationMb},
		});
	}

	/** A pool whose threads are warm; one that cannot warm up is closed, and its error thrown. */
	static async warm(size: PoolSize): Promise<TaskPool> {
		const pool = new TaskPool(size);
		try {
			await pool.warmUp();
		} catch (error) {
			await pool.close();
			throw error;
		}
		return pool;
	}

	/** Waits until every thread has loaded the worker module (and the engine), so no task is timed loading it. */
	async warmUp(): Promise<void> {
		const warm = new Set<number>();
		// A warm-up goes to a thread already up; the others are asked again until each has answered.
		while (warm.size < this.size.threads) {
			const answers = await Promise.all(Array.from({length: this.size.threads}, () => this.#pool.run({warmup: true})));
			for (const answer of answers) if ('warm' in answer) warm.add(answer.warm);
			if (warm.size < this.size.threads) await sleep(10);
		}
	}

	/** piscina's own `signal` is not used: it keeps a task alone on its thread and ends the thread to abort it. */
	async run(job: Omit<TaskJob, 'port' | 'taskMarker' | 'inCandidateCode'>, options: PoolRunOptions): Promise<PoolRun> {
		const taskMarker = `HLAB_TASK_${randomUUID().replaceAll('-', '')}`;
		const inCandidateCode = new Int32Array(new SharedArrayBuffer(4));
		const task: InFlight = {id: job.task.id, thread: null, inCandidateCode, hardDeadlineAt: performance.now() + hardDeadline(job.deadlineMs), fate: null};
		const {port1, port2} = new MessageChannel();
		const leaders: ProcessIdentity[] = [];
		// Only the engine's commands get the task's marker, and each announces its process group as it starts; candidate
		// code and a cartridge's tools run in the thread and might pass it on unannounced.
		let mayHaveMarked = job.candidate !== null || job.cartridge !== undefined;
		port1.on('message', (message: TaskThreadMessage) => {
			if ('thread' in message) task.thread = message.thread;
			else {
				mayHaveMarked = true;
				pushLeader(leaders, message.pid);
			}
		});
		const watch = this.#watch(task, job.deadlineMs, port1, options);
		// Read before the thread sees the marker: any process carrying it is created after this.
		const pidBefore = lastCreatedPid();
		const t0 = performance.now();
		this.#inFlight.add(task);
		let outcome: Ending | {kind: 'result'; result: TaskJobResult};
		try {
			const result = await this.#pool.run({...job, taskMarker, inCandidateCode, port: port2}, {transferList: [port2]});
			if ('warm' in result) throw new Error('a task job was answered as a warm-up');
			outcome = {kind: 'result', result};
		} catch (error) {
			outcome = task.fate ?? this.#failure(task, t0, error as Error);
		} finally {
			watch.stop();
			this.#inFlight.delete(task);
		}
		const wall_ms = performance.now() - t0;
		await endLeftovers(outcome.kind !== 'result', leaders, port1, taskMarker, () => mayHaveMarked && (pidBefore === null || lastCreatedPid() !== pidBefore));
		return {...outcome, wall_ms, thread: task.thread};
	}

	/** A task that never reported its thread failed with a thread: if one was ended meanwhile, it was posted to that one. */
	#failure(task: InFlight, dispatchedAt: number, error: Error): Ending {
		const ending = task.thread === null ? this.#endings.findLast(one => one.at >= dispatchedAt) : undefined;
		if (ending === undefined) return {kind: 'crash', message: `the worker thread failed: ${error.message}`};
		return {kind: 'crash', message: `its worker thread was ended before it started because the code of task ${ending.holder}, running there, did not yield`};
	}

	/** The task's timers: its hard deadline, and an interruption forwarded to its thread with the same grace. */
	#watch(task: InFlight, deadlineMs: number, port: MessageChannel['port1'], options: PoolRunOptions): {stop(): void} {
		const timers: NodeJS.Timeout[] = [setTimeout(() => this.#holdsThread(task, 'deadline'), hardDeadline(deadlineMs))];
		let stopHurrying = (): void => undefined;
		const onAbort = (): void => {
			port.postMessage({abort: 'interrupted'} satisfies TaskControlMessage);
			timers.push(setTimeout(() => this.#holdsThread(task, 'aborted', graceMs), graceMs));
			// A second interrupt cuts the grace the thread still has.
			stopHurrying = whenHurried(() => timers.push(setTimeout(() => this.#holdsThread(task, 'aborted', hurriedGraceMs), hurriedGraceMs)));
		};
		if (options.signal.aborted) onAbort();
		else options.signal.addEventListener('abort', onAbort, {once: true});
		return {
			stop() {
				for (const timer of timers) clearTimeout(timer);
				options.signal.removeEventListener('abort', onAbort);
				stopHurrying();
			},
		};
	}

	/**
	 * A task that has not settled within the grace: its thread is ended. If another task's candidate code is holding the
	 * thread, that code is what does not yield; the thread is ended at that task's own hard deadline, naming it.
	 */
	#holdsThread(trigger: InFlight, why: 'deadline' | 'aborted', withinMs = graceMs): void {
		const {thread} = trigger;
		// Still queued: it never started, so no thread of its holds anything yet.
		if (thread === null || trigger.fate !== null) return;
		const mates = [...this.#inFlight].filter(task => task.thread === thread);
		const holder = mates.find(task => Atomics.load(task.inCandidateCode, 0) === 1) ?? trigger;
		if (holder !== trigger && why === 'deadline' && holder.hardDeadlineAt > performance.now()) return;
		holder.fate = why === 'aborted'
			? {kind: 'aborted', message: `the attempt was interrupted and this task's code did not yield within ${withinMs} ms; its worker thread was ended`}
			: {kind: 'deadline', message: `this task's code did not yield within ${graceMs} ms after its deadline; its worker thread was ended`};
		for (const mate of mates) {
			if (mate !== holder) mate.fate = {kind: 'crash', message: `its worker thread was ended because the code of task ${holder.id}, running beside it, did not yield`};
		}
		this.#endings.push({at: performance.now(), holder: holder.id});
		// piscina fails every task of the ended thread and starts a fresh thread in its place.
		void this.#pool.threads.find(worker => worker.threadId === thread)?.terminate();
	}

	async close(): Promise<void> {
		await this.#pool.close({force: true});
	}
}

function pushLeader(leaders: ProcessIdentity[], pid: number): void {
	const leader = identifyLeader(pid);
	if (leader !== null) leaders.push(leader);
}

/** A task that did not end by itself has its process groups ended; any process carrying its marker is ended too. */
async function endLeftovers(ended: boolean, leaders: ProcessIdentity[], port: MessageChannel['port1'], taskMarker: string, mayHaveLeft: () => boolean): Promise<void> {
	// Announcements may still be queued on the port; let them arrive before the groups are ended.
	await new Promise(resolve => setImmediate(resolve));
	port.close();
	if (ended) killGroups(leaders);
	// A task that started no marked process (none announced and no candidate code, or no pid created at all) needs no /proc scan.
	const entry = `${taskMarker}=1`;
	if (ended || (mayHaveLeft() && findMarked(entry).length > 0)) await killMarked(entry);
}
