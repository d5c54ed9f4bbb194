import type {ExecutionOutcome} from '../../../engine/outcome.js';
import type {ResolvedProvider} from '../../../engine/provider-config.js';
import type {Grade} from '../../../tasks/index.js';
import type {AttemptTask} from './attempt-task.js';
import type {TaskPaths} from './export-evidence.js';
import {failedResult, type TaskFailure} from './failed-result.js';
import type {AttemptContext} from '../stages/attempt-context.js';
import type {TaskResult} from '../report/report-schema.js';
import {taskLimitsOf} from '../../plan/task-limits.js';
import {checkRuntimeSpace} from './runtime-space.js';
import {prepareTaskFolders} from './task-folders.js';
import {watchWorkspace} from './workspace-quota.js';
import type {Execution, TaskExecutor, TaskTurn} from './task-execution.js';

/** What every task of one run shares. */
export interface TaskRunner {
	attempt: AttemptContext;
	/** In frozen order; null where the plan names a task no source provides. */
	tasks: Array<AttemptTask | null>;
	executor: TaskExecutor;
	provider: ResolvedProvider;
}

/** A fresh workspace, the execution, then the independent grade; every way it can fail is a failed result with its reason. */
export async function executeTask(runner: TaskRunner, turn: TaskTurn): Promise<TaskResult> {
	const {plan} = runner.attempt;
	const evidence = {runtime_locations: `${turn.paths.relDir}/runtime-locations.json`};
	await prepareTaskFolders(turn.paths, plan.configuration.value);
	const limits = taskLimitsOf(plan);
	const noSpace = await checkRuntimeSpace(turn.paths.runtime, limits.workspaceBytes);
	if (noSpace !== null) return failedResult(turn.index, turn.id, noSpace, {evidence});
	const ready = await setUpTask(runner.tasks[turn.index] ?? null, turn.id, plan.tool_versions, turn.paths.workspace);
	if ('failure' in ready) return failedResult(turn.index, turn.id, ready.failure, {evidence});
	turn.onStart();
	turn.log.info('execution started');
	const quota = watchWorkspace(turn.paths.workspace, limits.workspaceBytes, runner.attempt.signal);
	const run = await runner.executor.execute({
		index: turn.index,
		task: {id: turn.id, prompt: ready.task.prompt},
		paths: turn.paths,
		provider: runner.provider,
		maxSteps: plan.budgets.max_steps,
		deadlineMs: ready.task.deadlineMs ?? plan.budgets.timeout_ms,
		memoryLimitBytes: ready.task.memoryLimitBytes ?? limits.memoryBytes,
		signal: quota.signal,
		...(ready.task.agent === undefined ? {} : {agent: ready.task.agent}),
	}).finally(() => quota.finish());
	const ran = {wall_ms: run.wall_ms, evidence: {...evidence, ...run.evidence}};
	// Over its workspace limit, the task failed for that, whatever the execution said once it was stopped.
	const unfinished = await quota.finish() ?? unfinishedOf(run);
	const result = unfinished !== null || run.outcome === null
		? failedResult(turn.index, turn.id, unfinished ?? noOutcome, {...ran, outcome: run.outcome, usage: run.outcome?.usage ?? null})
		: await grade(runner, turn, ready.task, run.outcome, ran);
	// A metered execution keeps what it said about its own usage beside the metering.
	return run.usageClaim === undefined ? result : {...result, usage_claim: run.usageClaim};
}

const noOutcome: TaskFailure = {reason: 'crash', message: 'the execution gave no outcome'};

/** Why an execution did not finish (null: it gave an outcome to grade); one mapping for every runner of a turn. */
export function unfinishedOf(run: Execution): TaskFailure | null {
	return run.unfinished ?? (run.outcome === null ? noOutcome : null);
}

/** The task must exist, find its tools, and set up its workspace before anything is timed. */
export async function setUpTask(task: AttemptTask | null, id: string, toolVersions: Record<string, string | null>, workspace: string): Promise<{task: AttemptTask} | {failure: TaskFailure}> {
	if (task === null) return {failure: {reason: 'init', message: `task ${id} is not available`}};
	const missing = task.tools.filter(tool => (toolVersions[tool] ?? null) === null);
	if (missing.length > 0) return {failure: {reason: 'missing_tool', message: `required tool${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}`}};
	try {
		await task.setup(workspace);
	} catch (error) {
		return {failure: {reason: 'init', message: `setup failed: ${(error as Error).message}`}};
	}
	return {task};
}

/** What a grader that runs workspace code hides from it, besides the install's: the evidence and the runtime state. */
function graderHidden(attempt: AttemptContext): string[] {
	return [attempt.dir, ...(attempt.runtime.dir === null ? [] : [attempt.runtime.dir])];
}

/** A grading the attempt's stop cut short failed for the stop, not for the grader. */
function gradingFailure(error: Error, signal: AbortSignal): TaskFailure {
	return signal.aborted
		? {reason: 'aborted', message: `the attempt was interrupted while the task was graded (${error.message})`}
		: {reason: 'grader', message: `the grader failed: ${error.message}`};
}

/** The verdict comes from the grader looking at the workspace, never from what the execution claims. */
async function grade(runner: TaskRunner, turn: TaskTurn, task: AttemptTask, outcome: ExecutionOutcome, ran: Pick<Execution, 'wall_ms' | 'evidence'>): Promise<TaskResult> {
	const {budgets} = runner.attempt.plan;
	// A grader that runs the candidate's code lets it write again: the workspace limit holds while it grades too.
	const quota = watchWorkspace({folders: [turn.paths.workspace, ...(task.graderFolders?.(turn.paths.dir) ?? [])], during: 'while the task was graded'}, taskLimitsOf(runner.attempt.plan).workspaceBytes, runner.attempt.signal);
	let verdict: Grade;
	try {
		verdict = await task.grade({workspace: turn.paths.workspace, outcome, stateDir: turn.paths.state, deadlineMs: budgets.timeout_ms, signal: quota.signal, taskDir: turn.paths.dir, wallMs: ran.wall_ms, hidden: graderHidden(runner.attempt)});
	} catch (error) {
		const failure = await quota.finish() ?? gradingFailure(error as Error, runner.attempt.signal);
		return failedResult(turn.index, turn.id, failure, {...ran, outcome, usage: outcome.usage});
	}
	// Over the limit, the grade given after the grader was stopped is not the task's.
	const over = await quota.finish();
	if (over !== null) return failedResult(turn.index, turn.id, over, {...ran, outcome, usage: outcome.usage});
	return {
		index: turn.index,
		task_id: turn.id,
		evidence: ran.evidence,
		wall_ms: ran.wall_ms,
		status: verdict.passed ? 'passed' : 'failed',
		reason: null,
		message: verdict.passed ? null : `the independent grader did not pass the workspace: ${verdict.details}`,
		grade: verdict,
		outcome,
		usage: outcome.usage,
		leak_audit: null,
	};
}
