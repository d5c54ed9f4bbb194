import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {Job, Queue, QueueEvents, Worker} from 'bullmq';
import type {Redis} from 'ioredis';
import type {Logger} from 'pino';
import type {AttemptOptions} from '../attempt/index.js';
import {failedResult, type TaskFailure} from '../attempt/index.js';
import type {Plan} from '../plan/plan-schema.js';
import type {NodeAudit, RecordedTask, RemotePlacement, TaskTurn} from '../attempt/index.js';
import {checkAnswer} from './answer-check.js';
import {beatHeart, forgetAttempt, publishAttempt, queueNameOf, readNodeAudits, readRefusals, removeKeys, withdrawAttempt, type AttemptManifest} from './attempt-channel.js';
import {checkNodeAudit} from './audit-check.js';
import {writeEvidence} from './evidence-transfer.js';
import {NodeAdmissions} from './node-admissions.js';
import {QueueAuditFile} from './queue-audit.js';
import {writeQueueRecord} from './queue-record.js';
import {freshNonce, manifestClaim, sealOf, sealScheme, type JobBinding} from './queue-seal.js';
import type {RedisLink} from './redis-link.js';
import type {TaskJobData, TaskJobReturn} from './task-message.js';

export interface QueueSettings {
	/** A task's exported evidence larger than this fails it with `evidence_limit`. */
	evidenceLimitBytes: number;
	/** A queue node's lock on a task; unrenewed this long (the node died), the task fails as `node_lost`. */
	lockMs: number;
	keepWorkspace: boolean;
	/** The secret the coordinator and its nodes share; null only with --insecure-queue (the attempt is then unauthenticated). */
	secret: string | null;
	/** How long, after the attempt is withdrawn, each of its nodes' final leak audits is awaited; a few seconds unless said. */
	auditWaitMs?: number;
	/** How long the attempt waits for a first queue node to take a task before it gives up (`text` for messages). */
	nodeWait: {ms: number; text: string};
	/** Called once when Redis is lost mid-attempt, or no node took a task within `nodeWait`: the attempt ends interrupted. */
	onLost(why: string): void;
	/** Where queue nodes' refusals are said as they arrive (stderr). */
	say(line: string): void;
}

/** How one task ended as the queue saw it. */
type JobEnd = {kind: 'answered'; answer: TaskJobReturn} | {kind: 'refused'; claimed: string | null; why: string} | {kind: 'failed'; reason: string} | {kind: 'stalled'} | {kind: 'lost'; why: string};

/** A job still in these states may yet get its real answer: a refused one read from it was a forged event. */
const stillOpen = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * The coordinator's placement: each whole turn becomes one job on the attempt's own queue, added only when a lane is
 * free (so no more than the frozen concurrency is ever queued or running across all queue nodes), in frozen order. A
 * node runs it whole and returns its result and evidence, which are written here as a local attempt writes them. A job
 * whose node stops renewing its lock is found by BullMQ's stalled-job check and failed as `worker_lost` (a reason reports already hold), never retried.
 */
export function queuePlacement(link: RedisLink, settings: QueueSettings): NonNullable<AttemptOptions['remotePlacement']> {
	return attempt => new QueueCoordinator(link, settings, attempt);
}

/** A node sees the withdrawal within half a second, then ends its tasks, audits and closes: a loaded machine may take seconds. */
const defaultAuditWaitMs = 8000;
const auditPollMs = 100;

/** How long the queue's parts may take to close once Redis is lost. */
const lostCloseMs = 2000;

/** BullMQ refuses integer job ids. */
const jobIdOf = (index: number): string => `task-${index}`;

class QueueCoordinator implements RemotePlacement {
	readonly kind = 'queue' as const;
	/** Queue nodes execute the turns in their worker threads. */
	readonly timing = 'in-process' as const;
	readonly queue: RemotePlacement['queue'];
	readonly #name: string;
	readonly #clients: Redis[] = [];
	readonly #waiting = new Map<string, (end: JobEnd) => void>();
	/** Every job this coordinator published, as it published it: an answer is checked against this, never against Redis. */
	readonly #published = new Map<string, JobBinding>();
	readonly #audit: QueueAuditFile;
	readonly #admissions: NodeAdmissions | null;
	readonly #auth: 'hmac-sha256' | 'none';
	#queue: Queue | null = null;
	#events: QueueEvents | null = null;
	#checker: Worker | null = null;
	#control: Redis | null = null;
	#lost: string | null = null;
	#closing = false;
	#refusalTimer: NodeJS.Timeout | undefined;
	#refusalsSeen = 0;
	/** The nodes whose answers were taken: on an unauthenticated queue, the only nodes known to have served. */
	readonly #answeredBy = new Set<string>();
	/** The node each job was first taken by, read when it became active: a later stalled-job check may rewrite `processedBy`. */
	readonly #takenBy = new Map<string, string>();
	#withdrawn = false;
	/** Why the attempt stopped waiting for queue nodes (none took a task in time); Redis itself still answers. */
	#noNode: string | null = null;
	#noNodeTold = false;
	#nodeTimer: NodeJS.Timeout | undefined;
	#firstTaken = false;

	constructor(readonly link: RedisLink, readonly settings: QueueSettings, readonly attempt: {attemptId: string; dir: string; plan: Plan; log: Logger}) {
		this.#name = queueNameOf(attempt.attemptId);
		this.#auth = settings.secret === null ? 'none' : sealScheme;
		this.queue = {name: this.#name, redis: link.bare, auth: this.#auth};
		this.#audit = new QueueAuditFile(attempt.dir, this.#auth);
		this.#admissions = settings.secret === null ? null : new NodeAdmissions(attempt.attemptId, settings.secret, this.#audit);
	}

	async start(lanes: number): Promise<void> {
		this.#control = this.#client(false);
		await writeQueueRecord(this.attempt.dir, {schema: 'harness-lab/attempt-queue@1', attempt_id: this.attempt.attemptId, queue: this.#name, redis: this.link.bare, queue_auth: this.#auth});
		const events = new QueueEvents(this.#name, {connection: this.#client(true), autorun: false});
		events.on('completed', ({jobId}) => void this.#answered(jobId));
		events.on('failed', ({jobId, failedReason}) => this.#end(jobId, {kind: 'failed', reason: failedReason}));
		events.on('active', ({jobId}) => void this.#noteTaker(jobId));
		events.on('stalled', ({jobId}) => this.#end(jobId, {kind: 'stalled'}));
		events.on('error', () => undefined);
		void events.run();
		await events.waitUntilReady();
		this.#events = events;
		this.#queue = new Queue(this.#name, {connection: this.#client(false), streams: {events: {maxLen: 1000}}});
		this.#queue.on('error', () => undefined);
		// The coordinator checks for stalled jobs itself: a lone queue node that died cannot report its own death.
		this.#checker = new Worker(this.#name, null, {connection: this.#client(true), autorun: false, maxStalledCount: 0, stalledInterval: this.settings.lockMs, lockDuration: this.settings.lockMs});
		this.#checker.on('error', () => undefined);
		await this.#checker.startStalledCheckTimer();
		// Alive before it is open: a node never takes the attempt for one whose coordinator is gone.
		await beatHeart(this.#control, this.attempt.attemptId, this.settings.lockMs);
		await publishAttempt(this.#control, await this.#manifest());
		this.#refusalTimer = setInterval(() => {
			void beatHeart(this.#control!, this.attempt.attemptId, this.settings.lockMs).catch(() => undefined);
			void this.#sayRefusals();
			void this.#admissions?.refresh(this.#control!).catch(() => undefined);
		}, 1000);
		this.#awaitNodes(lanes);
	}

	/** Said once, so that a coordinator with no node is not silent; and given up after the configured wait. */
	#awaitNodes(lanes: number): void {
		this.settings.say(`waiting for queue nodes on ${this.link.shown} to take ${lanes} lane${lanes === 1 ? '' : 's'} (the plan's concurrency); start one with: hlab queue-node --queue ${this.link.bare}`);
		const {ms, text} = this.settings.nodeWait;
		this.#nodeTimer = setTimeout(() => this.#giveUpOnNodes(text), ms);
	}

	#giveUpOnNodes(waited: string): void {
		if (this.#firstTaken || this.#lost !== null || this.#closing) return;
		const why = `no queue node took a task within ${waited} (--node-wait)`;
		this.#noNode = why;
		this.attempt.log.error({why}, 'no queue node');
		for (const resolve of this.#waiting.values()) resolve({kind: 'lost', why});
		this.#waiting.clear();
		this.settings.onLost(why);
	}

	/** Sealed with the secret, so that a node serves only attempts its coordinator published. */
	async #manifest(): Promise<AttemptManifest> {
		const unsealed = {
			schema: 'harness-lab/queue-attempt@1' as const, attempt_id: this.attempt.attemptId, queue: this.#name,
			plan: await readFile(join(this.attempt.dir, 'plan.json'), 'utf8'),
			keep_workspace: this.settings.keepWorkspace, evidence_limit_bytes: this.settings.evidenceLimitBytes, lock_ms: this.settings.lockMs,
			auth: this.#auth,
		};
		return {...unsealed, seal: this.settings.secret === null ? null : sealOf(this.settings.secret, manifestClaim(unsealed))};
	}

	/**
	 * A completion event: anyone who reaches Redis can write one, or answer a job with a BullMQ worker of their own. The
	 * answer is taken only when it checks out; a refused one is recorded, and fails its task only once the job can hold
	 * no other answer (it was completed with the refused one), else the real node's answer is still awaited.
	 */
	async #answered(jobId: string): Promise<void> {
		const binding = this.#published.get(jobId);
		if (binding === undefined || this.#queue === null) return;
		const job = await Job.fromId(this.#queue, jobId).catch(() => undefined);
		if (job === undefined) return;
		await this.#admissions?.refresh(this.#control!).catch(() => undefined);
		const check = checkAnswer(job.returnvalue, {binding, secret: this.settings.secret, admitted: this.#admissions?.admitted ?? new Map(), heldBy: job.processedBy});
		if ('accepted' in check) {
			if (this.#waiting.has(jobId)) return this.#end(jobId, {kind: 'answered', answer: check.accepted});
			return this.#refuse(binding, check.accepted.worker, 'the task was already answered (a replayed answer)');
		}
		this.#refuse(binding, check.claimed, check.refused);
		const state = await job.getState().catch(() => 'unknown');
		if (!stillOpen.has(state)) this.#end(jobId, {kind: 'refused', claimed: check.claimed, why: check.refused});
	}

	#refuse(binding: JobBinding, claimed: string | null, why: string): void {
		this.#audit.refused({what: 'answer', claimed_node: claimed, job_id: binding.job_id, index: binding.index, task_id: binding.task_id, why});
		this.attempt.log.warn({claimed_node: claimed, job: binding.job_id, why}, 'an answer was refused');
		this.settings.say(`refused an answer for task ${binding.task_id} claimed to be from ${claimed === null ? 'no named node' : `node ${claimed}`}: ${why}`);
	}

	/** A client of its own per BullMQ part; one losing Redis for good ends the attempt as interrupted. */
	#client(blocking: boolean): Redis {
		const client = this.link.client(blocking);
		client.on('error', () => undefined);
		client.on('end', () => this.#lose(`the connection to Redis at ${this.link.shown} was lost`));
		this.#clients.push(client);
		return client;
	}

	#lose(why: string): void {
		if (this.#lost !== null || this.#closing) return;
		this.#lost = why;
		this.attempt.log.error({why}, 'redis lost');
		for (const resolve of this.#waiting.values()) resolve({kind: 'lost', why});
		this.#waiting.clear();
		this.settings.onLost(why);
	}

	async #noteTaker(jobId: string): Promise<void> {
		if (!this.#firstTaken) this.#firstTook();
		if (this.#takenBy.has(jobId) || this.#queue === null) return;
		const taker = (await Job.fromId(this.#queue, jobId).catch(() => undefined))?.processedBy;
		if (taker !== undefined && !this.#takenBy.has(jobId)) this.#takenBy.set(jobId, taker);
	}

	#firstTook(): void {
		this.#firstTaken = true;
		clearTimeout(this.#nodeTimer);
		if (this.#noNode === null) this.settings.say('a queue node took the first task');
	}

	#end(jobId: string, end: JobEnd): void {
		const resolve = this.#waiting.get(jobId);
		this.#waiting.delete(jobId);
		resolve?.(end);
	}

	async runWhole(turn: TaskTurn): Promise<RecordedTask> {
		if (this.#queue === null) throw new Error('the queue placement was not started');
		const jobId = jobIdOf(turn.index);
		const ended = new Promise<JobEnd>(resolve => this.#waiting.set(jobId, resolve));
		const binding: JobBinding = {attempt_id: this.attempt.attemptId, job_id: jobId, index: turn.index, task_id: turn.id, nonce: freshNonce()};
		this.#published.set(jobId, binding);
		const gone = this.#lost ?? this.#noNode;
		if (gone !== null) this.#end(jobId, {kind: 'lost', why: gone});
		else await this.#queue.add(turn.id, {index: turn.index, task_id: turn.id, nonce: binding.nonce} satisfies TaskJobData, {jobId, attempts: 1}).catch((error: Error) => this.#end(jobId, {kind: 'failed', reason: `it could not be queued: ${error.message}`}));
		turn.onStart();
		return this.#record(turn, await ended);
	}

	async #record(turn: TaskTurn, end: JobEnd): Promise<RecordedTask> {
		if (end.kind === 'lost') return this.#failedLost(turn, end.why);
		const job = await Job.fromId(this.#queue!, jobIdOf(turn.index)).catch(() => undefined);
		if (end.kind === 'stalled') {
			await job?.remove().catch(() => undefined);
			const taker = this.#takenBy.get(jobIdOf(turn.index)) ?? job?.processedBy;
			const who = taker === undefined ? 'its worker' : `worker ${taker}`;
			return this.#failed(turn, {reason: 'worker_lost', message: `${who} stopped renewing its lock on this task (it died or lost Redis); not retried, since its tools may already have had effects`}, taker ?? null);
		}
		if (end.kind === 'failed') return this.#failed(turn, {reason: 'crash', message: `the job failed: ${end.reason}`}, null);
		await job?.remove().catch(() => undefined);
		if (end.kind === 'refused') {
			const who = end.claimed === null ? 'naming no node' : `claimed to be from node ${end.claimed}`;
			return this.#failed(turn, {reason: 'worker_lost', message: `no valid answer came: the job was completed with an answer ${who}, refused because ${end.why}; not retried, since a node's tools may already have had effects`}, null);
		}
		return this.#accept(turn, end.answer);
	}

	/** The queue node's result for the task asked, its files written into the task folder, result.json last. */
	async #accept(turn: TaskTurn, answer: TaskJobReturn): Promise<RecordedTask> {
		// The node is named by its checked answer, never by what its result claims.
		const result = {...answer.result, node: answer.worker};
		this.#audit.answered(turn.index, turn.id, answer.worker);
		this.#answeredBy.add(answer.worker);
		try {
			await writeEvidence(turn.paths.dir, answer.files, result);
		} catch (error) {
			const message = `the evidence from queue node ${answer.worker} could not be written: ${(error as Error).message}`;
			return {result: {...result, status: 'failed', reason: 'export', message}, problem: `task ${turn.id}: ${message}`};
		}
		turn.log.info({worker: answer.worker}, 'task answered by a queue node');
		return {result, problem: answer.problem};
	}

	/** Lost with Redis, or never taken by a node: the second is named once among the report's problems. */
	async #failedLost(turn: TaskTurn, why: string): Promise<RecordedTask> {
		if (why === this.#noNode) {
			const recorded = await this.#failed(turn, {reason: 'aborted', message: `${why}; the task never ran`}, null);
			const problem = this.#noNodeTold ? null : `${why}: the attempt ended as interrupted`;
			this.#noNodeTold = true;
			return {...recorded, problem};
		}
		return this.#failed(turn, {reason: 'aborted', message: `${why} while this task was queued or running; its outcome is unknown`}, null);
	}

	async #failed(turn: TaskTurn, failure: TaskFailure, node: string | null): Promise<RecordedTask> {
		const result = {...failedResult(turn.index, turn.id, failure, {evidence: {result: `${turn.paths.relDir}/result.json`}}), node};
		await writeEvidence(turn.paths.dir, [], result);
		return {result, problem: null};
	}

	async #sayRefusals(): Promise<void> {
		if (this.#control === null || this.#lost !== null) return;
		const refusals = await readRefusals(this.#control, this.attempt.attemptId, this.#refusalsSeen).catch(() => []);
		this.#refusalsSeen += refusals.length;
		for (const refusal of refusals) {
			this.attempt.log.warn(refusal, 'a queue node refused the attempt');
			this.settings.say(`worker ${refusal.worker} refused this attempt: ${refusal.differences.join('; ')}`);
		}
	}

	/**
	 * The attempt is withdrawn (its nodes stop taking jobs and close), then each node admitted for it (or, unauthenticated,
	 * each that answered) is given a bounded time to post its final leak audit, sealed as its answers are; a forged one is
	 * refused and recorded, and a node whose audit did not come is named as missing.
	 */
	async withdraw(): Promise<NodeAudit[]> {
		if (this.#lost !== null || this.#control === null || this.#withdrawn) return [];
		this.#withdrawn = true;
		const control = this.#control;
		await this.#sayRefusals();
		await this.#admissions?.refresh(control).catch(() => undefined);
		await withdrawAttempt(control, this.attempt.attemptId).catch(() => undefined);
		const taken = new Map<string, NodeAudit>();
		const seen = new Set<string>();
		const expected = (): string[] => [...new Set([...this.#admissions?.admitted.keys() ?? [], ...this.#answeredBy])];
		const deadline = performance.now() + (this.settings.auditWaitMs ?? defaultAuditWaitMs);
		for (;;) {
			await this.#admissions?.refresh(control).catch(() => undefined);
			for (const raw of await readNodeAudits(control, this.attempt.attemptId).catch(() => [])) this.#takeAudit(raw, seen, taken);
			if (expected().every(node => taken.has(node)) || performance.now() >= deadline || this.#lost !== null) break;
			await sleep(auditPollMs);
		}
		const missing = expected().filter(node => !taken.has(node)).map(node => ({node, missing: this.#lost ?? `none came within ${this.settings.auditWaitMs ?? defaultAuditWaitMs} ms of the attempt's withdrawal`}));
		return [...taken.values(), ...missing];
	}

	/** Each distinct post is checked once: a refused one is recorded; the node's first accepted one is its audit. */
	#takeAudit(raw: unknown, seen: Set<string>, taken: Map<string, NodeAudit>): void {
		const key = JSON.stringify(raw);
		if (seen.has(key)) return;
		seen.add(key);
		const check = checkNodeAudit(raw, this.attempt.attemptId, this.settings.secret, this.#admissions?.admitted ?? new Map());
		if ('refused' in check) {
			this.#audit.refused({what: 'audit', claimed_node: check.claimed, job_id: null, index: null, task_id: null, why: check.refused});
			this.attempt.log.warn({claimed_node: check.claimed, why: check.refused}, 'a final leak audit was refused');
			this.settings.say(`refused a final leak audit claimed to be from ${check.claimed === null ? 'no named node' : `node ${check.claimed}`}: ${check.refused}`);
			return;
		}
		const {node, audit} = check.accepted;
		if (!taken.has(node)) taken.set(node, {node, ...audit});
	}

	/** The attempt is withdrawn (queue nodes stop) if it was not yet, its queue removed with every job in it, and every client closed. */
	async close(): Promise<void> {
		clearInterval(this.#refusalTimer);
		clearTimeout(this.#nodeTimer);
		this.#closing = true;
		if (this.#lost === null && this.#control !== null) {
			await this.#sayRefusals();
			await withdrawAttempt(this.#control, this.attempt.attemptId).catch(() => undefined);
			await forgetAttempt(this.#control, this.attempt.attemptId).catch(() => undefined);
			await this.#queue?.obliterate({force: true}).catch(() => undefined);
		}
		// A Redis lost for good cannot answer a graceful close: the connections are dropped first, then the parts closed.
		if (this.#lost !== null) for (const client of this.#clients) client.disconnect();
		const closing = Promise.allSettled([this.#checker?.close(true), this.#events?.close(), this.#queue?.close()]);
		// Without Redis, BullMQ's parts may wait forever for a connection to close: they are given a moment, not the attempt.
		await (this.#lost === null ? closing : Promise.race([closing, sleep(lostCloseMs)]));
		// What the closing parts wrote last (the queue's meta) goes too: nothing of the attempt stays in Redis.
		if (this.#lost === null && this.#control !== null) await removeKeys(this.#control, `bull:${this.#name}:*`).catch(() => undefined);
		for (const client of this.#clients) client.disconnect();
		await this.#audit.flushed();
	}
}
