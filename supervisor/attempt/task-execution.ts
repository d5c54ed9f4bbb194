import type {Logger} from 'pino';
import type {CandidateSnapshot} from '../../engine/candidate/snapshot.js';
import type {ExecutionOutcome, Usage} from '../../engine/outcome.js';
import type {ResolvedProvider} from '../../engine/provider-config.js';
import type {ProviderLimiterShare} from '../../engine/provider/provider-limiter.js';
import type {Harness} from '../../harness/index.js';
import type {TaskAgent} from './attempt-task.js';
import type {TaskPaths} from './export-evidence.js';
import type {TaskFailure} from './failed-result.js';
import type {TaskResult} from './report-schema.js';
import {poolSize} from './pool-size.js';
import {TaskPool, type PoolRun} from './task-pool.js';

/** One task's execution as the runner asks for it, whoever runs it. */
export interface ExecutionJob {
	index: number;
	task: {id: string; prompt: string};
	paths: TaskPaths;
	provider: ResolvedProvider;
	maxSteps: number;
	timeoutMs: number;
	signal: AbortSignal;
	/** A cartridge's agent instead of the built-in one. */
	agent?: TaskAgent;
}

/** What the runner grades: the supervisor's wall time, the outcome, and why the execution did not finish (null: grading decides). */
export interface Execution {
	wall_ms: number;
	outcome: ExecutionOutcome | null;
	unfinished: TaskFailure | null;
	/** Evidence the execution left in the task folder, relative to the evidence directory. */
	evidence: Record<string, string>;
	/** Set when the usage was metered outside the execution (a supervised host): the outcome carries the metered usage, this the execution's own claim. */
	usageClaim?: Usage | null;
}

/** One task of the denominator, where it runs and what it logs. */
export interface TaskTurn {
	index: number;
	id: string;
	paths: TaskPaths;
	log: Logger;
	/** Called once the task's setup is done and its execution starts. */
	onStart(): void;
}

/** A task as the ledger will hold it. */
export interface RecordedTask {
	result: TaskResult;
	/** Set when the task's evidence could not be exported: a problem of the attempt, not only of the task. */
	problem: string | null;
}

/** Runs the tasks of one attempt: in worker threads (in-process), as supervised host processes, or on queue workers. */
export interface TaskExecutor {
	readonly timing: 'in-process' | 'supervised-host';
	/** The worker threads the tasks share once started; null where tasks run as processes (or nothing started). */
	readonly threads: number | null;
	start(lanes: number): Promise<void>;
	execute(job: ExecutionJob): Promise<Execution>;
	/**
	 * Set by an executor whose tasks run whole elsewhere (set up, executed, graded, audited and exported where they run,
	 * e.g. a queue worker): it leaves the task's evidence in `turn.paths.dir` and the runner records what it returns.
	 */
	runWhole?(turn: TaskTurn): Promise<RecordedTask>;
	close(): Promise<void>;
}

/**
 * The piscina pool: a few worker threads (one per core unless `threads` says otherwise) share the lanes, the engine
 * (and candidate) loaded once per thread in the supervisor's process. Every task draws from the attempt's one
 * provider limiter, when the plan froze limits, and runs the attempt's Harness when it has one.
 */
export function inProcessExecutor(candidate: CandidateSnapshot | null, {threads = null, limiter = null, harness = null}: {threads?: number | null; limiter?: ProviderLimiterShare | null; harness?: Harness | null} = {}): TaskExecutor {
	let pool: TaskPool | null = null;
	return {
		timing: 'in-process',
		get threads() {
			return pool?.size.threads ?? null;
		},
		async start(lanes) {
			pool = new TaskPool(poolSize(lanes, threads));
			await pool.warmUp();
		},
		async execute(job) {
			if (pool === null) throw new Error('the task pool was not started');
			const run = await pool.run({
				task: job.task,
				workspace: job.paths.workspace,
				stateDir: job.paths.state,
				provider: job.provider,
				maxSteps: job.maxSteps,
				timeoutMs: job.timeoutMs,
				candidate,
				...(limiter === null ? {} : {limiter}),
				// A cartridge case brings its own Harness and tools; otherwise the attempt's Harness, when it has one.
				...(job.agent !== undefined ? {harness: job.agent.harness, cartridge: job.agent.cartridge} : harness === null ? {} : {harness}),
			}, {deadlineMs: job.timeoutMs, signal: job.signal});
			return {...poolExecution(run), wall_ms: run.wall_ms, evidence: {}};
		},
		async close() {
			await pool?.close();
		},
	};
}

function poolExecution(run: PoolRun): Pick<Execution, 'outcome' | 'unfinished'> {
	switch (run.kind) {
		case 'deadline': return {outcome: null, unfinished: {reason: 'timeout', message: run.message}};
		case 'aborted': return {outcome: null, unfinished: {reason: 'aborted', message: run.message}};
		case 'crash': return {outcome: null, unfinished: {reason: 'crash', message: run.message}};
		default: break;
	}
	const result = run.result;
	if (result.kind === 'init_failed') return {outcome: null, unfinished: {reason: 'init', message: result.message}};
	if (result.kind === 'error') return {outcome: null, unfinished: {reason: result.reason, message: result.message}};
	return {outcome: result.outcome, unfinished: outcomeUnfinished(result.outcome)};
}

/** An outcome that ended failed or unfinished is not graded: the execution itself says it did not finish. */
export function outcomeUnfinished(outcome: ExecutionOutcome): Execution['unfinished'] {
	if (outcome.status === 'failed' || outcome.status === 'unfinished') {
		return {reason: outcome.reason ?? 'unfinished', message: outcome.message ?? `the execution ended ${outcome.status}`};
	}
	return null;
}
