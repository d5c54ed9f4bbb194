import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import type {Logger} from 'pino';
import type {ResolvedProvider} from '../../../engine/provider-config.js';
import type {LeakedProcess} from '../../../process/index.js';
import {writeJson} from '../../../files/write-json.js';
import {taskDirName} from '../../evidence/evidence-dir.js';
import type {Admission} from './admit-attempt.js';
import {type AttemptTask, builtinAttemptTask} from '../task-core/attempt-task.js';
import {cartridgeAttemptTasks} from '../task-core/cartridge-tasks.js';
import {controllerAttemptTasks} from '../task-core/controller-tasks.js';
import {harborAttemptTasks} from '../task-core/harbor-tasks.js';
import {TaskLeakWatch} from './audit-leaks.js';
import {BudgetGate} from './total-budget.js';
import {executeTask, type TaskRunner} from '../task-core/execute-task.js';
import {dropRuntimeState, exportTaskEvidence, taskPaths, type TaskPaths} from '../task-core/export-evidence.js';
import {failedResult, type TaskFailure} from '../task-core/failed-result.js';
import {lanesOf, runInFrozenOrder} from './frozen-order.js';
import type {AttemptContext} from './attempt-context.js';
import {Progress} from '../progress/progress.js';
import type {TaskResult} from '../report/report-schema.js';
import type {Services} from './start-services.js';
import type {RecordedTask, TaskTurn} from '../task-core/task-execution.js';
import type {Placement} from '../task-core/task-placement.js';
import {acceptedCarry, carryTask} from './carried-tasks.js';
import type {CarriedTasks} from './carried-records.js';

export interface TaskRun {
	/** One per task of the denominator, in frozen order. */
	results: TaskResult[];
	/** Problems with the attempt itself (evidence that could not be exported), each a sentence. */
	problems: string[];
	/** Processes ended at a task's end that no one task can be said to have left (tasks had overlapped). */
	unattributed: LeakedProcess[];
	/** The earlier attempt whose sealed records were taken in place of running their entries; null when none was. */
	carried: CarriedTasks | null;
}

const interrupted: TaskFailure = {reason: 'unfinished', message: 'the attempt was interrupted before this task started'};

/** Runs the fixed denominator; an attempt refused before its tasks records every one of them failed for that one reason. */
export async function runTasks(attempt: AttemptContext, admission: Admission, services: Services): Promise<TaskRun> {
	const {ready} = services;
	if (ready.failure !== null) return {results: await failDenominator(attempt, ready.failure), problems: [], unattributed: [], carried: null};
	const {plan} = attempt;
	const turns = taskTurns(attempt, admission, services, ready.provider);
	const budget = new BudgetGate(plan.total_budget);
	const carried = acceptedCarry(attempt, services);
	try {
		const recorded = await runInFrozenOrder<RecordedTask>({
			count: plan.task_ids.length,
			lanes: lanesOf(plan),
			signal: attempt.signal,
			run: index => withinBudget(attempt, index, budget, turns.progress, () => turns.run(index), carried),
			// Tasks an interruption kept from starting are failures of the fixed denominator, never dropped.
			notStarted: index => ({result: failedResult(index, plan.task_ids[index]!, interrupted), problem: null}),
		});
		return {results: recorded.map(task => task.result), problems: recorded.flatMap(task => task.problem ?? []), unattributed: turns.unattributed, carried};
	} finally {
		turns.progress.end();
	}
}

/** The attempt's task turns, asked for by index: by the frozen-order loop here, or one job at a time on a queue node. */
export interface TaskTurns {
	run(index: number): Promise<RecordedTask>;
	/** Where task `index`'s evidence is left, as a path. */
	taskDir(index: number): string;
	progress: Progress;
	/** Processes ended at a task's end that no one task can be said to have left. */
	unattributed: LeakedProcess[];
}

/** Every turn, wherever it is placed, is set up, executed, audited, exported, recorded in the ledger and shown the same way. */
export function taskTurns(attempt: AttemptContext, admission: Admission, services: Services, provider: ResolvedProvider): TaskTurns {
	const progress = new Progress(attempt.plan.task_ids.length, process.stderr, attempt.options.quiet ?? false);
	const watch = new TaskLeakWatch(attempt);
	const place = placeTurn(attempt, admission, services.placement, provider, watch);
	return {progress, unattributed: watch.unattributed, run: index => runOneTask(attempt, index, place, progress), taskDir: index => taskPathsOf(attempt, index).dir};
}

function attemptTasks(attempt: AttemptContext, admission: Admission): Array<AttemptTask | null> {
	if (attempt.plan.controller !== null) return controllerAttemptTasks(attempt.plan, attempt.dir, attempt.signal);
	if (admission.cartridge !== null) return cartridgeAttemptTasks(attempt.plan, admission.cartridge);
	if (attempt.plan.harbor !== undefined) return harborAttemptTasks(attempt.plan.harbor, attempt.plan.task_ids);
	return admission.result.tasks.map(task => (task === null ? null : builtinAttemptTask(task)));
}

/** Launches the task when the total budget allows it (a carried record counts as launched); otherwise records it failed with reason `budget`. */
async function withinBudget(attempt: AttemptContext, index: number, budget: BudgetGate, progress: Progress, run: () => Promise<RecordedTask>, carried: CarriedTasks | null): Promise<RecordedTask> {
	const refused = budget.launch();
	const taken = refused === null && carried?.results.has(index) === true ? await carryTask(attempt, carried, index) : null;
	if (taken !== null) {
		budget.finished(taken);
		progress.finished(taken, false);
		return {result: taken, problem: null};
	}
	if (refused !== null) {
		const result = await recordFailedTask(attempt, index, refused);
		progress.finished(result, false);
		return {result, problem: null};
	}
	const recorded = await run();
	budget.finished(recorded.result);
	return recorded;
}

/** Runs one whole turn where it is placed; `exported` says whether its runtime state may go once it is recorded. */
type PlaceTurn = (turn: TaskTurn, started: () => boolean) => Promise<{recorded: RecordedTask; exported: boolean}>;

/** Here, with the executor; or shipped whole to a queue, which leaves the evidence in the task folder and no runtime state. */
function placeTurn(attempt: AttemptContext, admission: Admission, placement: Placement, provider: ResolvedProvider, watch: TaskLeakWatch): PlaceTurn {
	if (placement.kind === 'queue') return async turn => ({recorded: await placement.remote.runWhole(turn), exported: false});
	const runner: TaskRunner = {attempt, tasks: attemptTasks(attempt, admission), executor: placement.executor, provider};
	return (turn, started) => runHere(runner, turn, watch, started);
}

/** A task run where it is placed, then appended to the ledger before the lane takes the next one. */
async function runOneTask(attempt: AttemptContext, index: number, place: PlaceTurn, progress: Progress): Promise<RecordedTask> {
	const id = attempt.plan.task_ids[index]!;
	const paths = taskPathsOf(attempt, index);
	const log = attempt.log.child({task: id, index});
	let started = false;
	const turn = {index, id, paths, log, onStart: () => {
		started = true;
		progress.started(id);
	}};
	const {recorded, exported} = await place(turn, () => started);
	await attempt.ledger.append(recorded.result, recorded.written);
	attempt.traces?.recorded(recorded.result, paths.dir);
	// Only now: a crash before the record is on disk leaves the state for `--recover` to export (a failed export moved it already).
	if (exported) dropRuntimeState(paths);
	log.info({status: recorded.result.status, reason: recorded.result.reason, wall_ms: recorded.result.wall_ms}, 'task recorded');
	progress.finished(recorded.result, started);
	return recorded;
}

function taskPathsOf(attempt: AttemptContext, index: number): TaskPaths {
	return taskPaths(attempt.dir, taskDirName(index, attempt.plan.task_ids[index]!, attempt.plan.task_ids.length), attempt.runtime.dir);
}

/** Executes one task, audits its leaks and exports its evidence; `exported` says whether its runtime state may go once recorded. */
async function runHere(runner: TaskRunner, turn: TaskTurn, watch: TaskLeakWatch, started: () => boolean): Promise<{recorded: RecordedTask; exported: boolean}> {
	watch.started();
	const result = await executeTask(runner, turn).catch((error: unknown) => {
		watch.abandoned();
		throw error;
	});
	const executed = {...result, leak_audit: await watch.ended(started())};
	// Controller tasks keep their workspace: the pinned controller scores it again at comparison.
	const recorded = await exportEvidence(turn.paths, executed, runner.attempt.options.keepWorkdirs || runner.attempt.plan.controller !== null, runner.attempt.attemptId, turn.log);
	return {recorded, exported: recorded.problem === null};
}

/** A task whose evidence cannot be exported fails, and its runtime state stays where it is for investigation. */
async function exportEvidence(paths: TaskPaths, executed: TaskResult, keepWorkspace: boolean, attemptId: string, log: Logger): Promise<RecordedTask> {
	try {
		const exported = await exportTaskEvidence(paths, executed, keepWorkspace, attemptId);
		return {result: exported.result, problem: null, written: exported.written};
	} catch (error) {
		const message = `evidence export failed, runtime state kept in ${paths.relDir}/runtime-state: ${(error as Error).message}`;
		log.error({err: error}, 'export failed');
		return {result: {...executed, status: 'failed', reason: 'export', message}, problem: `task ${executed.task_id}: ${message}`};
	}
}

/** Every task of the denominator failed for the attempt's one reason, each with its result and ledger record, in frozen order. */
async function failDenominator(attempt: AttemptContext, failure: TaskFailure): Promise<TaskResult[]> {
	const {plan} = attempt;
	return runInFrozenOrder({
		count: plan.task_ids.length,
		lanes: 1,
		run: index => recordFailedTask(attempt, index, failure),
		notStarted: index => failedResult(index, plan.task_ids[index]!, failure),
	});
}

async function recordFailedTask(attempt: AttemptContext, index: number, failure: TaskFailure): Promise<TaskResult> {
	const id = attempt.plan.task_ids[index]!;
	const relDir = taskDirName(index, id, attempt.plan.task_ids.length);
	await mkdir(join(attempt.dir, relDir), {recursive: true});
	const result = failedResult(index, id, failure, {evidence: {result: `${relDir}/result.json`}});
	await writeJson(join(attempt.dir, relDir, 'result.json'), result, {durable: true});
	await attempt.ledger.append(result);
	attempt.traces?.recorded(result, join(attempt.dir, relDir));
	return result;
}
