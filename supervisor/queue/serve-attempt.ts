import {rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {type Job, Worker} from 'bullmq';
import type {Redis} from 'ioredis';
import {admitAttempt, type Admission} from '../attempt/index.js';
import {taskDirName} from '../evidence/evidence-dir.js';
import {closeAttempt, openAttempt} from '../attempt/index.js';
import type {AttemptContext} from '../attempt/index.js';
import {localTaskRunner} from '../attempt/index.js';
import type {RecordedTask} from '../attempt/index.js';
import {startServices, type Services} from '../attempt/index.js';
import {isOpen, recordRefusal, type AttemptManifest} from './attempt-channel.js';
import {collectEvidence} from './evidence-transfer.js';
import type {RedisLink} from './redis-link.js';
import {TaskJobData, type TaskJobReturn} from './task-message.js';

export interface WorkerIdentity {
	name: string;
	concurrency: number;
	configPath: string | null;
	/** Where this worker keeps its attempts' evidence while a task runs. */
	root: string;
	say(line: string): void;
}

/** How often a serving worker looks whether its attempt is still open. */
const pollMs = 500;

/**
 * One attempt on this worker: the plan admitted here first (this installation's fingerprints, digests, tool versions,
 * and its own API key); a refusal lists every difference and takes no task. Admitted, it takes the attempt's jobs until
 * the coordinator withdraws the attempt (or this worker stops), each task run as a local attempt runs it.
 */
export async function serveAttempt(link: RedisLink, control: Redis, manifest: AttemptManifest, me: WorkerIdentity, stop: AbortSignal): Promise<'served' | 'refused'> {
	const planPath = join(me.root, `${manifest.attempt_id}.plan.json`);
	await writeFile(planPath, manifest.plan);
	const interrupt = new AbortController();
	const attempt = await openAttempt({planPath, artifacts: join(me.root, manifest.attempt_id), candidatePath: null, keepWorkdirs: manifest.keep_workspace, configPath: me.configPath, quiet: true, signal: interrupt.signal, threads: me.concurrency});
	let jobs: TaskJobs | null = null;
	try {
		const admission = await admitAttempt(attempt);
		const services = await startServices(attempt, admission);
		try {
			const refusal = refusalOf(admission, services);
			if (refusal.length > 0 || services.ready.provider === null) {
				await recordRefusal(control, manifest.attempt_id, {worker: me.name, differences: refusal});
				me.say(`refused attempt ${manifest.attempt_id} (${refusal.length} difference${refusal.length === 1 ? '' : 's'}):\n  ${refusal.join('\n  ')}`);
				return 'refused';
			}
			me.say(`serving attempt ${manifest.attempt_id}`);
			jobs = taskJobs(attempt, localTaskRunner(attempt, admission, services, services.ready.provider), manifest, me.name);
			await takeJobs(link, control, manifest, me, jobs, {stop, interrupt});
			return 'served';
		} finally {
			await services.close();
		}
	} finally {
		await closeAttempt(attempt);
		if (jobs?.kept() !== true) await rm(attempt.dir, {recursive: true, force: true});
		await rm(planPath, {force: true});
	}
}

/** Every difference admission found, or why this worker cannot reach the provider (its own API key): empty when admitted. */
function refusalOf(admission: Admission, services: Services): string[] {
	if (admission.result.differences.length > 0) return admission.result.differences;
	const {failure} = services.ready;
	return failure === null ? [] : [`${failure.reason}: ${failure.message}`];
}

interface TaskJobs {
	processor(job: Job): Promise<TaskJobReturn>;
	/** The jobs still running. */
	inFlight: Set<Promise<unknown>>;
	/** Whether a task's evidence over the bound is kept in this worker's folder. */
	kept(): boolean;
}

/** A job is one task run here, then its evidence collected under the bound and the local copy removed. */
function taskJobs(attempt: AttemptContext, runTask: (index: number) => Promise<RecordedTask>, manifest: AttemptManifest, worker: string): TaskJobs {
	const inFlight = new Set<Promise<unknown>>();
	let kept = false;
	const run = async (job: Job): Promise<TaskJobReturn> => {
		const data = TaskJobData.parse(job.data);
		const recorded = await runTask(data.index);
		const taskDir = join(attempt.dir, taskDirName(data.index, data.task_id, attempt.plan.task_ids.length));
		const collected = await collectEvidence(taskDir, manifest.evidence_limit_bytes);
		if ('tooLarge' in collected) {
			kept = true;
			const message = `the task's exported evidence is ${collected.tooLarge} bytes, over the bound of ${manifest.evidence_limit_bytes}; nothing was sent, worker ${worker} keeps it at ${taskDir}`;
			return {worker, result: {...recorded.result, status: 'failed', reason: 'evidence_limit', message}, problem: recorded.problem, files: []};
		}
		await rm(taskDir, {recursive: true, force: true});
		return {worker, ...recorded, files: collected.files};
	};
	return {
		inFlight,
		kept: () => kept,
		processor(job) {
			const running = run(job);
			inFlight.add(running);
			void running.finally(() => inFlight.delete(running)).catch(() => undefined);
			return running;
		},
	};
}

/**
 * A BullMQ worker on the attempt's queue until the attempt is withdrawn or this worker stops. Then running tasks end as
 * interrupted and nothing of theirs outlives them; a withdrawn attempt's jobs are gone, so their answers have nowhere to
 * go, while a stopped worker still answers with its interrupted tasks.
 */
async function takeJobs(link: RedisLink, control: Redis, manifest: AttemptManifest, me: WorkerIdentity, jobs: TaskJobs, ending: {stop: AbortSignal; interrupt: AbortController}): Promise<void> {
	const connection = link.client(true);
	connection.on('error', () => undefined);
	const worker = new Worker(manifest.queue, job => jobs.processor(job), {
		connection, name: me.name, concurrency: me.concurrency,
		lockDuration: manifest.lock_ms, stalledInterval: manifest.lock_ms, maxStalledCount: 0,
		// A short blocking wait, so that a worker told to stop (SIGTERM) closes within its grace.
		drainDelay: 1,
	});
	worker.on('error', () => undefined);
	let withdrawn = false;
	try {
		while (!ending.stop.aborted && !withdrawn) {
			withdrawn = !await isOpen(control, manifest.attempt_id).catch(() => true);
			if (!withdrawn) await sleep(pollMs);
		}
	} finally {
		// No new job is taken while the running ones end: a stopping worker must not fail tasks it never ran.
		await worker.pause(true).catch(() => undefined);
		ending.interrupt.abort();
		await Promise.allSettled(jobs.inFlight);
		await worker.close(withdrawn);
		connection.disconnect();
	}
}
