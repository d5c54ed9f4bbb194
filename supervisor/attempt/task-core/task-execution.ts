import type {Logger} from 'pino';
import type {ExecutionOutcome, Usage} from '../../../engine/outcome.js';
import type {ResolvedProvider} from '../../../engine/provider-config.js';
import type {TaskAgent} from './attempt-task.js';
import type {TaskPaths} from './export-evidence.js';
import type {TaskFailure} from './failed-result.js';
import type {TaskResult} from '../report/report-schema.js';

/** One task's execution as the runner asks for it, whoever runs it. */
export interface ExecutionJob {
	index: number;
	task: {id: string; prompt: string};
	paths: TaskPaths;
	provider: ResolvedProvider;
	maxSteps: number;
	deadlineMs: number;
	/** What each process the execution starts may hold (a host, an agent; the in-process engine's commands take the published one). */
	memoryLimitBytes: number;
	signal: AbortSignal;
	/** A cartridge's agent instead of the built-in one. */
	agent?: TaskAgent;
}

/** What the runner grades: the supervisor's wall time, the outcome, and why the execution did not finish (null: grading decides). */
export interface Execution {
	/** Null when the supervisor measured none (an agent that never started has no process record). */
	wall_ms: number | null;
	outcome: ExecutionOutcome | null;
	unfinished: TaskFailure | null;
	/** Evidence the execution left in the task folder, relative to the evidence directory. */
	evidence: Record<string, string>;
	/** Set when the usage was metered outside the execution (a supervised host): the outcome carries the metered usage, this the execution's own claim. */
	usageClaim?: Usage | null;
	/** The candidate plugins the execution loaded, by id, where the executor knows them (in-process). */
	loadedPlugins?: string[];
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
	/** Digests of the evidence files its export just wrote, by name in the evidence directory: the ledger's seal takes them as written. */
	written?: ReadonlyMap<string, string>;
}

/** Executes the task turns placed here: in worker threads (in-process) or as supervised host processes. */
export interface TaskExecutor {
	readonly timing: 'in-process' | 'supervised-host';
	/** The worker threads the tasks share once started; null where tasks run as processes (or nothing started). */
	readonly threads: number | null;
	start(lanes: number): Promise<void>;
	execute(job: ExecutionJob): Promise<Execution>;
	/** The attempt's provider service died: tasks that run out of the supervisor's reach stop asking it (optional). */
	providerDied?(atMs: number): void;
	close(): Promise<void>;
}

/** An outcome that ended failed or unfinished is not graded: the execution itself says it did not finish. */
export function outcomeUnfinished(outcome: ExecutionOutcome): Execution['unfinished'] {
	if (outcome.status === 'failed' || outcome.status === 'unfinished') {
		return {reason: outcome.reason ?? 'unfinished', message: outcome.message ?? `the execution ended ${outcome.status}`};
	}
	return null;
}

/** What every executor hands the agent from a job: the task, its folders, the provider and the limits. */
export function agentInput(job: ExecutionJob, provider: ResolvedProvider = job.provider) {
	return {task: job.task, workspace: job.paths.workspace, stateDir: job.paths.state, provider, maxSteps: job.maxSteps, deadlineMs: job.deadlineMs};
}
