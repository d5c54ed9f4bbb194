import {rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {type Job, Worker} from 'bullmq';
import type {Redis} from 'ioredis';
import {serveTasks, type ServedTasks, type TaskService} from '../attempt/index.js';
import {coordinatorAlive, heartbeatTtlMs, isOpen, postNodeAudit, recordAdmission, recordRefusal, type AttemptManifest} from './attempt-channel.js';
import type {NodeFinalAudit} from './audit-check.js';
import {collectEvidence} from './evidence-transfer.js';
import {admissionClaim, answerClaim, auditClaim, freshNonce, manifestClaim, sealMatches, sealOf} from './queue-seal.js';
import type {RedisLink} from './redis-link.js';
import {TaskJobData, type TaskJobReturn} from './task-message.js';

export interface QueueNodeIdentity {
	name: string;
	/** How many tasks this node runs at once (BullMQ's concurrency). */
	parallelTasks: number;
	/** The worker threads its tasks share; null: as many as it runs tasks at once. */
	threads: number | null;
	configPath: string | null;
	/** The secret shared with coordinators; null only with --insecure-queue. */
	secret: string | null;
	/** The files the secret and the Redis password were read from: hidden from every sandboxed task like the evidence. */
	secretFiles: string[];
	/** Where this node keeps its attempts' evidence while a task runs. */
	root: string;
	say(line: string): void;
}

/** How often a serving queue node looks whether its attempt is still open. */
const pollMs = 500;

/**
 * One attempt on this queue node, served as the attempt's own `serveTasks` runs it: the plan admitted here first (this
 * installation's fingerprints, digests, tool versions, and its own API key), a refusal listing every difference and
 * taking no task. Admitted, it takes the attempt's jobs until the coordinator withdraws the attempt (or this node
 * stops), each task run as a local attempt runs it, and ends with the attempt's final leak audit, posted (sealed to
 * this node's admission) for the coordinator's report.
 */
export async function serveAttempt(link: RedisLink, control: Redis, manifest: AttemptManifest, me: QueueNodeIdentity, stop: AbortSignal): Promise<'served' | 'refused'> {
	const unauthentic = whyNotAuthentic(manifest, me.secret);
	if (unauthentic !== null) return refuse(control, manifest, me, [unauthentic]);
	const planPath = join(me.root, `${manifest.attempt_id}.plan.json`);
	await writeFile(planPath, manifest.plan);
	const artifacts = join(me.root, manifest.attempt_id);
	const interrupt = new AbortController();
	let jobs: TaskJobs | null = null;
	let nodeNonce: string | null = null;
	try {
		const served = await serveTasks(
			{planPath, artifacts, candidatePath: null, keepWorkdirs: manifest.keep_workspace, configPath: me.configPath, quiet: true, signal: interrupt.signal, threads: me.threads ?? me.parallelTasks, secretFiles: me.secretFiles},
			async service => {
				me.say(`serving attempt ${manifest.attempt_id}`);
				nodeNonce = await admitSelf(control, manifest, me);
				jobs = taskJobs(service, manifest, me, nodeNonce);
				await takeJobs(link, control, manifest, me, jobs, {stop, interrupt});
			},
		);
		if (served.reason === null) await postAudit(control, manifest, me, nodeNonce, {leaks: served.leaks, problems: served.problems});
		return await said(control, manifest, me, served);
	} finally {
		if ((jobs as TaskJobs | null)?.kept() !== true) await rm(artifacts, {recursive: true, force: true});
		await rm(planPath, {force: true});
	}
}

/** A refusal is recorded for the coordinator to say; what the final audit found is said here, where it ran. */
async function said(control: Redis, manifest: AttemptManifest, me: QueueNodeIdentity, served: ServedTasks): Promise<'served' | 'refused'> {
	if (served.reason === 'refused') return refuse(control, manifest, me, served.differences);
	const {leaked, backend} = served.leaks;
	const unattributed = leaked.filter(leak => leak.task_index === null).map(leak => leak.pid);
	me.say(`attempt ${manifest.attempt_id}: final leak audit [${backend}]: ${leaked.length} process(es) outlived their task or the attempt${unattributed.length === 0 ? '' : ` (no one task left ${unattributed.join(', ')})`}`);
	for (const problem of served.problems) me.say(`attempt ${manifest.attempt_id}: problem: ${problem}`);
	return 'served';
}

/** The coordinator waits a few seconds for it after withdrawing the attempt; a node that cannot post it is named there as missing. */
async function postAudit(control: Redis, manifest: AttemptManifest, me: QueueNodeIdentity, nodeNonce: string | null, audit: NodeFinalAudit): Promise<void> {
	// Sealed as the coordinator will read it: through JSON.
	const stored = JSON.parse(JSON.stringify(audit)) as unknown;
	const seal = me.secret === null || nodeNonce === null ? null : {node_nonce: nodeNonce, mac: sealOf(me.secret, auditClaim(manifest.attempt_id, me.name, nodeNonce, stored))};
	await postNodeAudit(control, manifest.attempt_id, {node: me.name, audit: stored, seal}).catch((error: Error) => me.say(`attempt ${manifest.attempt_id}: the final leak audit could not be posted: ${error.message}`));
}

async function refuse(control: Redis, manifest: AttemptManifest, me: QueueNodeIdentity, differences: string[]): Promise<'refused'> {
	await recordRefusal(control, manifest.attempt_id, {worker: me.name, differences});
	me.say(`refused attempt ${manifest.attempt_id} (${differences.length} difference${differences.length === 1 ? '' : 's'}):\n  ${differences.join('\n  ')}`);
	return 'refused';
}

/** A node with the secret serves only attempts sealed with it; one without serves only unauthenticated ones (both sides chose --insecure-queue). */
function whyNotAuthentic(manifest: AttemptManifest, secret: string | null): string | null {
	if (secret === null) return manifest.auth === 'none' ? null : 'queue auth: the attempt seals its answers and this node has no queue secret (it runs with --insecure-queue)';
	if (manifest.auth === 'none') return 'queue auth: the attempt is unauthenticated (--insecure-queue) and this node holds a queue secret; it answers only sealed attempts';
	if (!sealMatches(secret, manifestClaim(manifest), manifest.seal)) return 'queue auth: the attempt is not sealed with this node\'s queue secret (another secret, or not published by a coordinator that holds it)';
	return null;
}

/** Proves to the coordinator that this node holds the secret, for this attempt only; the nonce then binds each of its answers to this admission. */
async function admitSelf(control: Redis, manifest: AttemptManifest, me: QueueNodeIdentity): Promise<string | null> {
	if (me.secret === null) return null;
	const nonce = freshNonce();
	await recordAdmission(control, manifest.attempt_id, {node: me.name, nonce, seal: sealOf(me.secret, admissionClaim(manifest.attempt_id, me.name, nonce))});
	return nonce;
}

interface TaskJobs {
	processor(job: Job): Promise<TaskJobReturn>;
	/** The jobs still running. */
	inFlight: Set<Promise<unknown>>;
	/** Whether a task's evidence over the bound is kept in this node's folder. */
	kept(): boolean;
}

/** A job is one task run here, then its evidence collected under the bound and the local copy removed; the answer sealed to the job. */
function taskJobs(service: TaskService, manifest: AttemptManifest, me: QueueNodeIdentity, nodeNonce: string | null): TaskJobs {
	const inFlight = new Set<Promise<unknown>>();
	let kept = false;
	const seal = (data: TaskJobData, jobId: string, answer: Omit<TaskJobReturn, 'seal'>): TaskJobReturn => {
		if (me.secret === null || nodeNonce === null) return {...answer, seal: null};
		const binding = {attempt_id: manifest.attempt_id, job_id: jobId, index: data.index, task_id: data.task_id, nonce: data.nonce};
		// Sealed as the coordinator will read it: through JSON, as BullMQ stores a job's return value.
		const stored = JSON.parse(JSON.stringify(answer)) as Record<string, unknown>;
		return {...answer, seal: {node_nonce: nodeNonce, mac: sealOf(me.secret, answerClaim(binding, me.name, nodeNonce, stored))}};
	};
	const run = async (job: Job): Promise<TaskJobReturn> => {
		const data = TaskJobData.parse(job.data);
		return seal(data, job.id!, await answer(data));
	};
	const node = me.name;
	const answer = async (data: TaskJobData): Promise<Omit<TaskJobReturn, 'seal'>> => {
		const recorded = await service.run(data.index);
		const taskDir = service.taskDir(data.index);
		const collected = await collectEvidence(taskDir, manifest.evidence_limit_bytes);
		if ('tooLarge' in collected) {
			kept = true;
			const message = `the task's exported evidence is ${collected.tooLarge} bytes, over the bound of ${manifest.evidence_limit_bytes}; nothing was sent, worker ${node} keeps it at ${taskDir}`;
			return {worker: node, result: {...recorded.result, status: 'failed', reason: 'evidence_limit', message}, problem: recorded.problem, files: []};
		}
		await rm(taskDir, {recursive: true, force: true});
		return {worker: node, ...recorded, files: collected.files};
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

/** Withdrawn, or its coordinator's heartbeat gone (it died without withdrawing it): the node leaves the attempt either way. */
async function leaving(control: Redis, manifest: AttemptManifest, me: QueueNodeIdentity): Promise<boolean> {
	if (!await isOpen(control, manifest.attempt_id).catch(() => true)) return true;
	if (await coordinatorAlive(control, manifest.attempt_id).catch(() => true)) return false;
	me.say(`leaving attempt ${manifest.attempt_id}: its coordinator is gone (no heartbeat for ${heartbeatTtlMs(manifest.lock_ms)} ms)`);
	return true;
}

/**
 * A BullMQ worker (BullMQ's word) on the attempt's queue until the attempt is withdrawn or this node stops. Then running
 * tasks end as interrupted and nothing of theirs outlives them; a withdrawn attempt's jobs are gone, so their answers
 * have nowhere to go, while a stopped node still answers with its interrupted tasks.
 */
async function takeJobs(link: RedisLink, control: Redis, manifest: AttemptManifest, me: QueueNodeIdentity, jobs: TaskJobs, ending: {stop: AbortSignal; interrupt: AbortController}): Promise<void> {
	// A stopping node does not wait for a Redis that went away (BullMQ's close would, forever): its answers have nowhere to go.
	const connection = link.client(true, {}, ending.stop);
	connection.on('error', () => undefined);
	const worker = new Worker(manifest.queue, job => jobs.processor(job), {
		connection, name: me.name, concurrency: me.parallelTasks,
		lockDuration: manifest.lock_ms, stalledInterval: manifest.lock_ms, maxStalledCount: 0,
		// A short blocking wait, so that a node told to stop (SIGTERM) closes within its grace.
		drainDelay: 1,
	});
	worker.on('error', () => undefined);
	let withdrawn = false;
	try {
		while (!ending.stop.aborted && !withdrawn) {
			withdrawn = await leaving(control, manifest, me);
			if (!withdrawn) await sleep(pollMs);
		}
	} finally {
		// No new job is taken while the running ones end: a stopping node must not fail tasks it never ran.
		await worker.pause(true).catch(() => undefined);
		ending.interrupt.abort();
		await Promise.allSettled(jobs.inFlight);
		await worker.close(withdrawn);
		connection.disconnect();
	}
}
