import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import {cartridgeToolImplementations, type JudgeEndpoint, type LoadedCartridge, type LoadedCase} from '../../cartridges/index.js';
import {EngineError, failedBeforeStart, runAgent, type ExecutionOutcome, type ResolvedProvider} from '../../engine/index.js';
import {writeJson} from '../../files/write-json.js';
import {capturedExchanges, trajectory} from '../../cartridges/captured-run.js';
import {caseRecordSchema, type CaseRecord, type CartridgeIdentity, type ProviderIdentity} from '../../cartridges/case-record.js';
import {judgeCase} from '../../cartridges/judge-case.js';
import {seedWorkspace} from '../../cartridges/seed-workspace.js';

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
		wall_ms: Math.round(wallMs),
		...judged,
	};
	await writeJson(join(run.caseDir, 'record.json'), record, durable);
	return record;
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
