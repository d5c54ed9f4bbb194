import {mkdir, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {
	CollectAnswer, cartridgeToolImplementations, GradeAnswer, runEvaluation,
	type CollectorResult, type FinalState, type GraderResult, type JudgeEndpoint, type LoadedCartridge, type LoadedCase, type LoadedEvalModule,
} from '../../cartridges/index.js';
import {EngineError, failedBeforeStart, runAgent, type ExecutionOutcome, type ResolvedProvider} from '../../engine/index.js';
import {writeJson} from '../../files/write-json.js';
import {capturedExchanges, trajectory} from './captured-run.js';
import {caseRecordSchema, type CaseRecord, type CartridgeIdentity, type ProviderIdentity} from './case-record.js';
import {caseVerdict} from './verdict.js';

export interface CaseRun {
	cartridge: LoadedCartridge;
	identity: CartridgeIdentity;
	entry: LoadedCase;
	caseDir: string;
	provider: ResolvedProvider;
	providerIdentity: ProviderIdentity;
	maxSteps: number | null;
	threshold: number | null;
	/** Where graders that ask a model send their question (`--judge`); null skips them. */
	judge: JudgeEndpoint | null;
	replayOf: CaseRecord['replay_of'];
	signal?: AbortSignal;
}

const durable = {durable: true, exclusive: true} as const;

/** Runs one case: a fresh seeded workspace, the agent, then collectors and graders in their own processes; writes its record. */
export async function runCase(run: CaseRun): Promise<CaseRecord> {
	const workspace = join(run.caseDir, 'workspace');
	const stateDir = join(run.caseDir, 'state');
	await seedWorkspace(workspace, run.entry.case.task.files ?? {});
	await mkdir(stateDir, {recursive: true});
	// Kept apart from the trajectory: the agent never sees it.
	await writeJson(join(run.caseDir, 'expected.json'), run.entry.case.expected ?? null, durable);
	const startedAt = performance.now();
	const outcome = await runAgentOnCase(run, workspace, stateDir);
	const wallMs = performance.now() - startedAt;
	await writeJson(join(run.caseDir, 'trajectory.json'), await trajectory(stateDir), durable);
	await writeJson(join(run.caseDir, 'exchanges.json'), await capturedExchanges(stateDir), durable);

	const state = finalState(outcome);
	const processes: CaseRecord['processes'] = [];
	const collectors = await collect(run, state, workspace, processes);
	const facts = Object.assign({}, ...collectors.map(result => result.facts ?? {})) as CaseRecord['facts'];
	const graders = await grade(run, state, facts, processes);
	const processProblems = processes.flatMap(entry => (entry.problem ? [{module: entry.module, problem: entry.problem}] : []));
	const record: CaseRecord = {
		schema: caseRecordSchema,
		case_id: run.entry.id,
		goal: run.entry.case.task.goal,
		marks: run.entry.case.marks,
		case_digest: run.entry.digest,
		expected_digest: run.entry.expected_digest,
		cartridge: run.identity,
		provider: run.providerIdentity,
		replay_of: run.replayOf,
		outcome,
		wall_ms: Math.round(wallMs),
		collectors,
		facts,
		graders,
		processes,
		verdict: caseVerdict({outcome, collectors, graders, processProblems, threshold: run.threshold}),
	};
	await writeJson(join(run.caseDir, 'record.json'), record, durable);
	return record;
}

async function seedWorkspace(workspace: string, files: Record<string, string>): Promise<void> {
	await mkdir(workspace, {recursive: true});
	for (const [path, content] of Object.entries(files)) {
		await mkdir(dirname(join(workspace, path)), {recursive: true});
		await writeFile(join(workspace, path), content, {flag: 'wx'});
	}
}

async function runAgentOnCase(run: CaseRun, workspace: string, stateDir: string): Promise<ExecutionOutcome> {
	try {
		const toolImplementations = await cartridgeToolImplementations(run.cartridge, {project_root: workspace, case_id: run.entry.id});
		return await runAgent({
			harness: run.cartridge.harness,
			// The goal only: task.files and expected never reach the model.
			task: {id: run.entry.id, prompt: run.entry.case.task.goal},
			workspace,
			stateDir,
			provider: run.provider,
			...(run.maxSteps === null ? {} : {maxSteps: run.maxSteps}),
			plugins: [],
			toolImplementations,
			...(run.signal ? {signal: run.signal} : {}),
		});
	} catch (error) {
		if (!(error instanceof EngineError)) throw error;
		return failedBeforeStart(error);
	}
}

function finalState(outcome: ExecutionOutcome): FinalState {
	return {completed: outcome.status === 'done', status: outcome.status, reason: outcome.reason, steps: outcome.steps, final_text: outcome.final_text};
}

/** The results an evaluation process owed but could not give: each of the module's exports, errored. */
function unanswered(module: LoadedEvalModule, problem: string): {name: string; marks: string[]; problem: string}[] {
	return module.exports.map(entry => ({name: entry.name, marks: entry.marks, problem}));
}

async function collect(run: CaseRun, state: FinalState, workspace: string, processes: CaseRecord['processes']): Promise<CollectorResult[]> {
	const results: CollectorResult[] = [];
	for (const module of run.cartridge.collectors) {
		const answer = await runEvaluation({mode: 'collect', module: {path: module.source.path, code: module.source.code}, input: {state, runtime: {project_root: workspace, case_id: run.entry.id}}}, CollectAnswer, {cwd: run.caseDir});
		processes.push({role: 'collector', module: module.source.path, problem: answer.ok ? null : answer.problem, process: answer.process});
		if (answer.ok) results.push(...answer.answer.results);
		else results.push(...unanswered(module, answer.problem).map(entry => ({module: module.source.path, name: entry.name, status: 'error' as const, facts: null, error: entry.problem})));
	}
	return results;
}

async function grade(run: CaseRun, state: FinalState, facts: CaseRecord['facts'], processes: CaseRecord['processes']): Promise<GraderResult[]> {
	const results: GraderResult[] = [];
	const context = {
		case_id: run.entry.id,
		task: {goal: run.entry.case.task.goal},
		expected: run.entry.case.expected ?? null,
		marks: run.entry.case.marks,
		facts,
		completed: state.completed,
		state,
	};
	for (const module of run.cartridge.graders) {
		const answer = await runEvaluation({mode: 'grade', module: {path: module.source.path, code: module.source.code}, context, threshold: run.threshold, judge: run.judge}, GradeAnswer, {cwd: run.caseDir});
		processes.push({role: 'grader', module: module.source.path, problem: answer.ok ? null : answer.problem, process: answer.process});
		if (answer.ok) results.push(...answer.answer.results);
		else results.push(...unanswered(module, answer.problem).map(entry => ({module: module.source.path, name: entry.name, marks: entry.marks, status: 'error' as const, score: null, detail: entry.problem, judge_exchanges: []})));
	}
	return results;
}
