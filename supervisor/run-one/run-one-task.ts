import {mkdtemp, readdir, stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {compileCandidate, EngineError, failedBeforeStart, type CandidateSnapshot, type ExecutionOutcome, type EngineFailureReason, type ResolvedProvider} from '../../engine/index.js';
import {builtinTasks, getTask, missingTools, type TaskDefinition} from '../../tasks/index.js';
import {builtinAttemptTask} from '../attempt/index.js';
import {TaskPool, type PoolRun} from '../../workers/task-pool.js';
import {UsageError} from '../input-error.js';
import type {PlanProvider} from '../plan/plan-schema.js';
import {AgentRun, agentRunSchema} from './agent-run.js';
import {startProvider} from '../attempt/index.js';

export interface RunOneOptions {
	taskId: string;
	workspace: string;
	/** Default: a new temporary directory. */
	stateDir: string | null;
	candidatePath: string | null;
	provider: PlanProvider;
	maxSteps: number;
	timeoutMs: number;
	gradeTimeoutMs: number;
	/** Ends the execution; the workspace is still graded. */
	signal: AbortSignal;
}

/**
 * Runs one built-in task outside an experiment with the pieces an attempt uses: the task's own setup, the
 * provider started as an attempt starts it, the candidate compiled once and loaded in a task thread, and the
 * task's independent grader on the workspace afterwards.
 */
export async function runOneTask(options: RunOneOptions): Promise<AgentRun> {
	const task = knownTask(options.taskId);
	const workspace = resolve(options.workspace);
	await checkWorkspace(workspace);
	await task.setup(workspace);
	const stateDir = options.stateDir === null ? await mkdtemp(join(tmpdir(), 'hlab-agent-')) : resolve(options.stateDir);
	const startedAt = performance.now();
	const {outcome, candidate, pluginId} = await execute(task, workspace, stateDir, options);
	const wallMs = performance.now() - startedAt;
	// The grader is not interrupted with the run: an interrupted run still gets its workspace graded.
	const grade = await builtinAttemptTask(task).grade({workspace, outcome, stateDir, timeoutMs: options.gradeTimeoutMs, signal: new AbortController().signal});
	return AgentRun.parse({
		schema: agentRunSchema,
		task: task.id,
		workspace,
		state_dir: stateDir,
		provider: options.provider,
		budgets: {max_steps: options.maxSteps, timeout_ms: options.timeoutMs},
		candidate: candidate === null ? null : {source_path: candidate.source_path, source_digest: candidate.source_digest, code_digest: candidate.code_digest, plugin_id: pluginId},
		outcome,
		grade,
		wall_ms: Math.round(wallMs),
	});
}

function knownTask(id: string): TaskDefinition {
	const task = getTask(id);
	if (!task) throw new UsageError(`unknown task ${id} (known: ${builtinTasks.map(entry => entry.id).join(', ')})`, 'unknown_task');
	return task;
}

/** The workspace must be missing or an empty directory, so the grade is of this run alone. */
async function checkWorkspace(workspace: string): Promise<void> {
	let info;
	try {
		info = await stat(workspace);
	} catch {
		return;
	}
	if (!info.isDirectory()) throw new UsageError(`workspace ${workspace} exists and is not a directory`, 'workspace');
	if ((await readdir(workspace)).length > 0) throw new UsageError(`workspace ${workspace} is not empty; give a new or empty directory`, 'workspace');
}

interface Executed {
	outcome: ExecutionOutcome;
	candidate: CandidateSnapshot | null;
	pluginId: string | null;
}

/** Everything before grading, in stages; a failure the engine classifies becomes a failed outcome, never a thrown error. */
async function execute(task: TaskDefinition, workspace: string, stateDir: string, options: RunOneOptions): Promise<Executed> {
	const missing = missingTools(task.tools);
	if (missing.length > 0) return failedRun(new EngineError('missing_tool', `the task needs ${missing.join(', ')} on PATH`), null);
	const candidate = options.candidatePath === null ? null : await compile(options.candidatePath);
	if (candidate instanceof EngineError) return failedRun(candidate, null);
	const started = await startProvider(options.provider, stateDir).catch((error: Error) => new EngineError('init', `the provider could not start: ${error.message}`));
	if (started instanceof EngineError) return failedRun(started, candidate);
	try {
		return {...await runInThread({id: task.id, prompt: task.prompt}, workspace, stateDir, started.provider, candidate, options), candidate};
	} finally {
		await started.close();
	}
}

function failedRun(error: EngineError, candidate: CandidateSnapshot | null): Executed {
	return {outcome: failedBeforeStart(error), candidate, pluginId: null};
}

/** The candidate compiled once, as an attempt compiles it; a candidate that does not compile is the run's failure. */
async function compile(path: string): Promise<CandidateSnapshot | EngineError> {
	try {
		return await compileCandidate(path);
	} catch (error) {
		if (error instanceof EngineError) return error;
		throw error;
	}
}

/** One task in a worker thread of the attempt's task pool: the candidate loads there, and the thread ends at the deadline. */
async function runInThread(task: {id: string; prompt: string}, workspace: string, stateDir: string, provider: ResolvedProvider, candidate: CandidateSnapshot | null, options: RunOneOptions): Promise<Omit<Executed, 'candidate'>> {
	const pool = new TaskPool({threads: 1, tasksPerThread: 1});
	try {
		const run = await pool.run({task, workspace, stateDir, provider, maxSteps: options.maxSteps, deadlineMs: options.timeoutMs, candidate}, {signal: options.signal});
		return outcomeOf(run);
	} finally {
		await pool.close();
	}
}

/** The thread's answer as an outcome: how it ended when it gave none. */
function outcomeOf(run: PoolRun): Omit<Executed, 'candidate'> {
	const failed = (reason: EngineFailureReason, message: string) => ({outcome: failedBeforeStart(new EngineError(reason, message)), pluginId: null});
	switch (run.kind) {
		case 'deadline': return failed('timeout', run.message);
		case 'aborted': return failed('aborted', run.message);
		case 'crash': return failed('crash', run.message);
		default: break;
	}
	const result = run.result;
	if (result.kind === 'init_failed') return failed('init', result.message);
	if (result.kind === 'error') return failed(result.reason, result.message);
	return {outcome: result.outcome, pluginId: result.loaded_plugins[0] ?? null};
}
