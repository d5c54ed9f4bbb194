import {randomUUID} from 'node:crypto';
import {MessageChannel} from 'node:worker_threads';
import {Piscina} from 'piscina';
import {lastCreatedPid} from '../../process/proc-table.js';
import type {ProcessIdentity} from '../../process/process-identity.js';
import {distPath} from '../../files/install-root.js';
import type {ProcessGroupMessage, TaskJob, TaskJobResult} from '../../workers/task-job.js';
import {findMarked, identifyLeader, killGroups, killMarked} from '../../process/kill-marked.js';

export type PoolRun = (
	| {kind: 'result'; result: TaskJobResult}
	| {kind: 'deadline'; message: string}
	| {kind: 'aborted'; message: string}
	| {kind: 'crash'; message: string}
) & {
	/** Monotonic wall time from dispatch to the thread's answer (or its ending), measured here. */
	wall_ms: number;
};

export interface PoolRunOptions {
	/** The supervisor's hard limit for the execution; the thread is ended when it passes. */
	deadlineMs: number;
	signal: AbortSignal;
}

/** A piscina pool with one task per worker thread; ending a thread also ends every process group its task started. */
export class TaskPool {
	readonly #pool: Piscina<TaskJob | {warmup: true}, TaskJobResult | 'warm'>;

	constructor(readonly concurrency: number) {
		this.#pool = new Piscina({
			filename: distPath('workers/task-worker.js'),
			minThreads: concurrency,
			maxThreads: concurrency,
			concurrentTasksPerWorker: 1,
			idleTimeout: 60_000,
		});
	}

	/** Loads the worker module in every thread before any task is timed, so each attempt starts equally warm. */
	async warmUp(): Promise<void> {
		await Promise.all(Array.from({length: this.concurrency}, () => this.#pool.run({warmup: true})));
	}

	async run(job: Omit<TaskJob, 'port' | 'taskMarker'>, options: PoolRunOptions): Promise<PoolRun> {
		const taskMarker = `HLAB_TASK_${randomUUID().replaceAll('-', '')}`;
		const {port1, port2} = new MessageChannel();
		const leaders: ProcessIdentity[] = [];
		port1.on('message', (message: ProcessGroupMessage) => {
			const leader = identifyLeader(message.pid);
			if (leader !== null) leaders.push(leader);
		});
		const stop = new AbortController();
		const state: {ended: {kind: 'deadline' | 'aborted'; message: string} | null} = {ended: null};
		const deadline = setTimeout(() => {
			state.ended = {kind: 'deadline', message: `the supervisor's deadline of ${options.deadlineMs} ms passed; the worker thread was ended`};
			stop.abort(state.ended.message);
		}, options.deadlineMs);
		const onAbort = (): void => {
			state.ended ??= {kind: 'aborted', message: 'the attempt was interrupted; the worker thread was ended'};
			stop.abort(state.ended.message);
		};
		if (options.signal.aborted) onAbort();
		else options.signal.addEventListener('abort', onAbort, {once: true});
		let outcome: PoolRun;
		// Read before the thread sets the marker: any process carrying it is created after this.
		const pidBefore = lastCreatedPid();
		const t0 = performance.now();
		try {
			const result = await this.#pool.run({...job, taskMarker, port: port2}, {transferList: [port2], signal: stop.signal});
			if (result === 'warm') throw new Error('a task job was answered as a warm-up');
			outcome = {kind: 'result', result, wall_ms: performance.now() - t0};
		} catch (error) {
			outcome = {...state.ended ?? {kind: 'crash', message: `the worker thread failed: ${(error as Error).message}`}, wall_ms: performance.now() - t0};
		} finally {
			clearTimeout(deadline);
			options.signal.removeEventListener('abort', onAbort);
		}
		// Announcements may still be queued on the port; let them arrive before the groups are ended.
		await new Promise(resolve => setImmediate(resolve));
		port1.close();
		if (outcome.kind !== 'result') killGroups(leaders);
		// Whatever way the task ended, nothing it started may outlive it; a task that created no process needs no scan.
		const entry = `${taskMarker}=1`;
		const created = pidBefore === null || lastCreatedPid() !== pidBefore;
		if (outcome.kind !== 'result' || (created && findMarked(entry).length > 0)) await killMarked(entry);
		return outcome;
	}

	async close(): Promise<void> {
		await this.#pool.close({force: true});
	}
}
