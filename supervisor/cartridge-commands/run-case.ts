import {join} from 'node:path';
import {caseGrade, type JudgeEndpoint, type LoadedCartridge, type LoadedCase} from '../../cartridges/index.js';
import type {ExecutionOutcome, ResolvedProvider} from '../../engine/index.js';
import {writeJson} from '../../files/write-json.js';
import {capturedExchanges, trajectory} from '../../cartridges/captured-run.js';
import {caseRecordSchema, type CaseRecord, type CartridgeIdentity, type ProviderIdentity} from '../../cartridges/case-record.js';
import {judgeCase} from '../../cartridges/judge-case.js';
import {seedWorkspace} from '../../cartridges/seed-workspace.js';
import {runStandaloneTurn, type TaskExecutor} from '../attempt/index.js';

export interface CaseRun {
	cartridge: LoadedCartridge;
	identity: CartridgeIdentity;
	entry: LoadedCase;
	caseDir: string;
	/** The evaluation's executor, started: the case runs in one of its threads, as an attempt's task does. */
	executor: TaskExecutor;
	provider: ResolvedProvider;
	providerIdentity: ProviderIdentity;
	maxSteps: number | null;
	threshold: number | null;
	/** Where graders that ask a model send their question (`--judge`); null skips them. */
	judge: JudgeEndpoint | null;
	replayOf: CaseRecord['replay_of'];
	signal: AbortSignal;
}

const durable = {durable: true, exclusive: true} as const;
/** Judging has its own bounds per evaluation process; this is only what the turn hands a grader. */
const judgeTimeoutMs = 60_000;

/**
 * Runs one case as a task turn of the attempt's core: a fresh seeded workspace, the agent in a pool thread under the
 * contract's deadline (the thread ended at the deadline plus the grace), then collectors and graders in their own
 * processes; writes its record.
 */
export async function runCase(run: CaseRun): Promise<CaseRecord> {
	const {limits} = run.cartridge.harness;
	const judged: CaseRecord[] = [];
	await runStandaloneTurn({
		task: {
			id: run.entry.id,
			// The goal only: task.files and expected never reach the model.
			prompt: run.entry.case.task.goal,
			tools: [],
			setup: workspace => seedWorkspace(workspace, run.entry.case.task.files ?? {}),
			grade: async context => {
				judged.push(await judgeRun(run, context.outcome, context.wallMs));
				return caseGrade(judged[0]!);
			},
			agent: {harness: run.cartridge.harness, cartridge: {data: run.cartridge, case_id: run.entry.id}},
		},
		workspace: join(run.caseDir, 'workspace'),
		stateDir: join(run.caseDir, 'state'),
		ready: {executor: run.executor, provider: run.provider},
		maxSteps: run.maxSteps ?? limits.max_steps,
		deadlineMs: limits.deadline_ms,
		toolVersions: {},
		signal: run.signal,
		gradeDeadlineMs: judgeTimeoutMs,
	});
	return judged[0]!;
}

/** After the run: what it left, the expected data (only now beside the workspace), the judgement, and the record. */
async function judgeRun(run: CaseRun, outcome: ExecutionOutcome, wallMs: number | null): Promise<CaseRecord> {
	const workspace = join(run.caseDir, 'workspace');
	const stateDir = join(run.caseDir, 'state');
	await writeJson(join(run.caseDir, 'trajectory.json'), await trajectory(stateDir), durable);
	await writeJson(join(run.caseDir, 'exchanges.json'), await capturedExchanges(stateDir), durable);
	// Kept apart from the trajectory, and written only once the agent is done: its tools never see it.
	await writeJson(join(run.caseDir, 'expected.json'), run.entry.case.expected ?? null, durable);
	const judged = await judgeCase({cartridge: run.cartridge, entry: run.entry, outcome, workspace, cwd: run.caseDir, threshold: run.threshold, judge: run.judge});
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
		wall_ms: wallMs === null ? null : Math.round(wallMs),
		...judged,
	};
	await writeJson(join(run.caseDir, 'record.json'), record, durable);
	return record;
}
