import {rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {type Job, Worker} from 'bullmq';
import type {Redis} from 'ioredis';
import {admitAttempt} from '../attempt/admit-attempt.js';
import {taskDirName} from '../evidence/evidence-dir.js';
import {closeAttempt, openAttempt} from '../attempt/open-attempt.js';
import {localTaskRunner} from '../attempt/run-tasks.js';
import {startServices} from '../attempt/start-services.js';
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
	let kept = false;
	try {
		const admission = await admitAttempt(attempt);
		const services = await startServices(attempt, admission);
		try {
			const refusal = admission.result.differences.length > 0 ? admission.result.differences : services.ready.failure === null ? [] : [`${services.ready.failure.reason}: ${services.ready.failure.message}`];
			if (refusal.length > 0 || services.ready.provider === null) {
				await recordRefusal(control, manifest.attempt_id, {worker: me.name, differences: refusal});
				me.say(`refused attempt ${manifest.attempt_id} (${refusal.length} difference${refusal.length === 1 ? '' : 's'}):\n  ${refusal.join('\n  ')}`);
				return 'refused';
			}
			me.say(`serving attempt ${manifest.attempt_id}`);
			const runTask = localTaskRunner(attempt, admission, services, services.ready.provider);
			const total = attempt.plan.task_ids.length;
			const inFlight = new Set<Promise<unknown>>();
			const processor = (job: Job): Promise<TaskJobReturn> => {
				const running = runJob(job);
				inFlight.add(running);
				void running.finally(() => inFlight.delete(running)).catch(() => undefined);
				return running;
			};
			const runJob = async (job: Job): Promise<TaskJobReturn> => {
				const data = TaskJobData.parse(job.data);
				const recorded = await runTask(data.index);
				const taskDir = join(attempt.dir, taskDirName(data.index, data.task_id, total));
				const collected = await collectEvidence(taskDir, manifest.evidence_limit_bytes);
				if ('tooLarge' in collected) {
					kept = true;
					const message = `the task's exported evidence is ${collected.tooLarge} bytes, over the bound of ${manifest.evidence_limit_bytes}; nothing was sent, worker ${me.name} keeps it at ${taskDir}`;
					return {worker: me.name, result: {...recorded.result, status: 'failed', reason: 'evidence_limit', message}, problem: recorded.problem, files: []};
				}
				await rm(taskDir, {recursive: true, force: true});
				return {worker: me.name, ...recorded, files: collected.files};
			};
			const connection = link.client(true);
			connection.on('error', () => undefined);
			const worker = new Worker(manifest.queue, processor, {
				connection, name: me.name, concurrency: Math.min(me.concurrency, attempt.plan.policy.concurrency),
				lockDuration: manifest.lock_ms, stalledInterval: manifest.lock_ms, maxStalledCount: 0,
				// A short blocking wait, so that a worker told to stop (SIGTERM) closes within its grace.
				drainDelay: 1,
			});
			worker.on('error', () => undefined);
			let withdrawn = false;
			try {
				while (!stop.aborted && !withdrawn) withdrawn = !await isOpen(control, manifest.attempt_id).catch(() => true) || (await sleep(pollMs), false);
			} finally {
				// Withdrawn or stopped: running tasks end as interrupted, nothing of theirs outlives them. A withdrawn attempt's
				// jobs are gone, so their answers have nowhere to go; a stopped worker still answers with its interrupted tasks.
				interrupt.abort();
				await Promise.allSettled(inFlight);
				await worker.close(withdrawn);
				connection.disconnect();
			}
			return 'served';
		} finally {
			await services.close();
		}
	} finally {
		await closeAttempt(attempt);
		if (!kept) await rm(attempt.dir, {recursive: true, force: true});
		await rm(planPath, {force: true});
	}
}
