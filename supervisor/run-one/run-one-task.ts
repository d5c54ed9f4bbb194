import {mkdtemp, readdir, stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {compileCandidate, EngineError, type CandidateSnapshot, type ResolvedProvider} from '../../engine/index.js';
import {inProcessExecutor, runStandaloneTurn, startProvider, TaskFailure, type StandaloneRun, type TaskExecutor} from '../attempt/index.js';
import type {PlanProvider} from '../plan/plan-schema.js';
import {toolVersions} from '../plan/tool-versions.js';
import {UsageError} from '../input-error.js';
import {AgentRun, agentRunSchema} from './agent-run.js';
import {resolveSubject, type Subject, type SubjectChoice} from './run-subject.js';

export interface RunOneOptions {
	subject: SubjectChoice;
	workspace: string;
	/** Default: a new temporary directory. */
	stateDir: string | null;
	candidatePath: string | null;
	provider: PlanProvider;
	/** Null: the task's own (a cartridge's contract, the built-in agent's limits). */
	maxSteps: number | null;
	deadlineMs: number | null;
	gradeDeadlineMs: number;
	/** Ends the execution; the workspace is still graded. */
	signal: AbortSignal;
}

/**
 * Runs one task outside an experiment as an attempt runs it: a built-in task or a cartridge's case, set up, executed
 * by the attempt's in-process executor (the candidate compiled once and loaded in its thread, the thread ended at the
 * deadline plus the grace) against the provider started as an attempt starts it, then graded independently.
 */
export async function runOneTask(options: RunOneOptions): Promise<AgentRun> {
	const subject = await resolveSubject(options.subject);
	const workspace = resolve(options.workspace);
	await checkWorkspace(workspace);
	const stateDir = options.stateDir === null ? await mkdtemp(join(tmpdir(), 'hlab-agent-')) : resolve(options.stateDir);
	const budgets = {max_steps: options.maxSteps ?? subject.limits.max_steps, timeout_ms: options.deadlineMs ?? subject.limits.deadline_ms};
	const candidate = options.candidatePath === null ? null : await compile(options.candidatePath);
	const run = await execute(subject, workspace, stateDir, candidate, budgets, options);
	return AgentRun.parse({
		schema: agentRunSchema,
		task: subject.task.id,
		...(subject.cartridge === null ? {} : {cartridge: subject.cartridge}),
		workspace,
		state_dir: stateDir,
		provider: options.provider,
		budgets,
		candidate: candidate === null || 'failure' in candidate ? null : {...candidateRecord(candidate.snapshot), plugin_id: run.loaded_plugins[0] ?? null},
		outcome: run.outcome,
		grade: run.grade,
		wall_ms: run.wall_ms === null ? null : Math.round(run.wall_ms),
	});
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

type Compiled = {snapshot: CandidateSnapshot} | {failure: TaskFailure};

/** The candidate compiled once, as an attempt compiles it; a candidate that does not compile is the run's failure. */
async function compile(path: string): Promise<Compiled> {
	try {
		return {snapshot: await compileCandidate(path)};
	} catch (error) {
		if (error instanceof EngineError) return {failure: {reason: error.reason, message: error.message}};
		throw error;
	}
}

function candidateRecord(snapshot: CandidateSnapshot): {source_path: string; source_digest: string; code_digest: string} {
	return {source_path: snapshot.source_path, source_digest: snapshot.source_digest, code_digest: snapshot.code_digest};
}

/** The provider and one task thread for the turn; whatever cannot start is the turn's failure, and its workspace is still graded. */
async function execute(subject: Subject, workspace: string, stateDir: string, candidate: Compiled | null, budgets: AgentRun['budgets'], options: RunOneOptions): Promise<StandaloneRun> {
	const started = candidate !== null && 'failure' in candidate ? null : await startProvider(options.provider, stateDir, subject.conversations).catch((error: Error) => new EngineError('init', `the provider could not start: ${error.message}`));
	const executor: TaskExecutor = inProcessExecutor(candidate === null || 'failure' in candidate ? null : candidate.snapshot, {threads: 1});
	// The tools' `--version` are process starts: they run while the thread loads the engine.
	const versions = toolVersions(subject.task.tools);
	try {
		const ready = readyOf(candidate, started, executor);
		if ('executor' in ready) await executor.start(1);
		return await runStandaloneTurn({
			task: subject.task, workspace, stateDir, ready, maxSteps: budgets.max_steps, deadlineMs: budgets.timeout_ms,
			toolVersions: await versions, signal: options.signal, gradeDeadlineMs: options.gradeDeadlineMs,
		});
	} finally {
		await versions.catch(() => undefined);
		await executor.close();
		if (started !== null && !(started instanceof EngineError)) await started.close();
	}
}

function readyOf(candidate: Compiled | null, started: {provider: ResolvedProvider} | EngineError | null, executor: TaskExecutor): {executor: TaskExecutor; provider: ResolvedProvider} | {failure: TaskFailure} {
	if (candidate !== null && 'failure' in candidate) return {failure: candidate.failure};
	if (started instanceof EngineError) return {failure: {reason: started.reason, message: started.message}};
	return {executor, provider: started!.provider};
}
