import {mkdir} from 'node:fs/promises';
import {EngineError, EngineFailureReason, failedBeforeStart, type ExecutionOutcome, type ResolvedProvider} from '../../../engine/index.js';
import type {Grade} from '../../../tasks/index.js';
import {defaultMemoryLimitBytes} from '../../plan/task-limits.js';
import type {AttemptTask} from './attempt-task.js';
import {setUpTask, unfinishedOf} from './execute-task.js';
import type {TaskFailure} from './failed-result.js';
import type {Execution, TaskExecutor} from './task-execution.js';

/** One task turn outside an attempt (`hlab agent`, `hlab cartridge eval`): the attempt's set-up, executor and failure mapping. */
export interface StandaloneTurn {
	task: AttemptTask;
	workspace: string;
	stateDir: string;
	/** What the execution needs (an executor already started, so turns can share its threads), or why it cannot start. */
	ready: {executor: TaskExecutor; provider: ResolvedProvider} | {failure: TaskFailure};
	maxSteps: number;
	/** The soft deadline; an in-process executor ends the thread at this plus its grace, as in an attempt. */
	deadlineMs: number;
	/** Each tool's version as a plan records it, null for one not found. */
	toolVersions: Record<string, string | null>;
	/** Interrupts the execution; the workspace is still graded. */
	signal: AbortSignal;
	gradeDeadlineMs: number;
}

export interface StandaloneRun {
	/** The execution's outcome, or the reason it gave none as a failed outcome. */
	outcome: ExecutionOutcome;
	grade: Grade;
	/** The executor's wall time of the execution; null when it never started. */
	wall_ms: number | null;
	loaded_plugins: string[];
}

/**
 * Sets the task up, executes it as an attempt would, then grades the workspace however the execution ended: outside an
 * attempt there is no denominator to record a failure in, so the grader (or a cartridge's judges) sees the failure too.
 */
export async function runStandaloneTurn(turn: StandaloneTurn): Promise<StandaloneRun> {
	await mkdir(turn.stateDir, {recursive: true});
	await mkdir(turn.workspace, {recursive: true});
	const set = await setUpTask(turn.task, turn.task.id, turn.toolVersions, turn.workspace);
	const before = 'failure' in set ? set.failure : 'failure' in turn.ready ? turn.ready.failure : null;
	const run = before === null && 'executor' in turn.ready ? await turn.ready.executor.execute(jobOf(turn, turn.ready.provider)) : null;
	const outcome = outcomeOf(before, run);
	const wallMs = run?.wall_ms ?? null;
	// The grader is not interrupted with the run: an interrupted run still gets its workspace graded.
	const grade = await turn.task.grade({workspace: turn.workspace, outcome, stateDir: turn.stateDir, deadlineMs: turn.gradeDeadlineMs, signal: new AbortController().signal, wallMs});
	return {outcome, grade, wall_ms: wallMs, loaded_plugins: run?.loadedPlugins ?? []};
}

function jobOf(turn: StandaloneTurn, provider: ResolvedProvider): Parameters<TaskExecutor['execute']>[0] {
	const {task} = turn;
	return {
		index: 0,
		task: {id: task.id, prompt: task.prompt},
		paths: {relDir: '.', dir: turn.stateDir, runtime: turn.stateDir, state: turn.stateDir, session: turn.stateDir, workspace: turn.workspace},
		provider,
		maxSteps: turn.maxSteps,
		deadlineMs: turn.deadlineMs,
		// Outside a plan, the plan's default.
		memoryLimitBytes: defaultMemoryLimitBytes,
		signal: turn.signal,
		...(task.agent === undefined ? {} : {agent: task.agent}),
	};
}

/** The execution's own outcome when it gave one; otherwise why it did not finish, as the engine records a failed start. */
function outcomeOf(before: TaskFailure | null, run: Execution | null): ExecutionOutcome {
	if (run?.outcome) return run.outcome;
	const failure = before ?? (run === null ? null : unfinishedOf(run)) ?? {reason: 'crash', message: 'the execution gave no outcome'};
	const engine = EngineFailureReason.safeParse(failure.reason);
	// An outcome carries only the engine's reasons; a supervisor reason is kept in the message, never dropped.
	return failedBeforeStart(engine.success ? new EngineError(engine.data, failure.message) : new EngineError('crash', `${failure.reason}: ${failure.message}`));
}
