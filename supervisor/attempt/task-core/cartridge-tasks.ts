import {join} from 'node:path';
import type {LoadedCartridge, LoadedCase} from '../../../cartridges/index.js';
import {scriptedModel} from '../../../engine/index.js';
import {writeJson} from '../../../files/write-json.js';
import {caseGrade, caseRecordSchema, cartridgeIdentity, judgeCase, seedWorkspace, type CaseRecord, type Judgement, type ProviderIdentity} from '../../../cartridges/index.js';
import type {Plan, PlanProvider} from '../../plan/plan-schema.js';
import {entryTaskId} from '../../plan/task-selection.js';
import type {AttemptTask, GradeContext} from './attempt-task.js';

/** Where each case keeps its own record in its task folder, beside result.json. */
export const caseRecordFile = 'case-record.json';

/**
 * The tasks of a cartridge plan: each denominator entry runs its case with the loaded cartridge's Harness and tools
 * (the plan's cartridge, or the candidate cartridge), in a workspace seeded from the case's files, and is judged by
 * the cartridge's collectors and graders in their own supervised processes, required graders fail-closed.
 */
export function cartridgeAttemptTasks(plan: Plan, cartridge: LoadedCartridge): Array<AttemptTask | null> {
	return plan.task_ids.map(entry => {
		const found = cartridge.cases.find(item => item.id === entryTaskId(entry));
		return found === undefined ? null : caseTask(plan, cartridge, entry, found);
	});
}

function caseTask(plan: Plan, cartridge: LoadedCartridge, id: string, entry: LoadedCase): AttemptTask {
	return {
		id,
		// The goal only: task.files and expected never reach the model.
		prompt: entry.case.task.goal,
		tools: [],
		setup: workspace => seedWorkspace(workspace, entry.case.task.files ?? {}),
		async grade(context) {
			const judged = await judgeCase({cartridge, entry, outcome: context.outcome, workspace: context.workspace, cwd: context.taskDir ?? context.workspace, threshold: null, judge: null});
			if (context.taskDir !== undefined) await writeCaseRecord(context, plan.provider, cartridge, entry, judged);
			return caseGrade(judged);
		},
		agent: {harness: cartridge.harness, cartridge: {data: cartridge, case_id: entry.id}},
	};
}

/** The case's record, as `hlab cartridge eval` keeps it, plus its expected data apart: the evidence of how it was judged. */
async function writeCaseRecord(context: GradeContext, provider: PlanProvider, cartridge: LoadedCartridge, entry: LoadedCase, judged: Judgement): Promise<void> {
	const record: CaseRecord = {
		schema: caseRecordSchema,
		case_id: entry.id,
		goal: entry.case.task.goal,
		marks: entry.case.marks,
		case_digest: entry.digest,
		expected_digest: entry.expected_digest,
		cartridge: cartridgeIdentity(cartridge),
		provider: providerIdentity(provider),
		replay_of: null,
		outcome: context.outcome,
		wall_ms: context.wallMs === null ? null : Math.round(context.wallMs),
		...judged,
	};
	const taskDir = context.taskDir!;
	await writeJson(join(taskDir, 'expected.json'), entry.case.expected ?? null, {durable: true, exclusive: true});
	await writeJson(join(taskDir, caseRecordFile), record, {durable: true, exclusive: true});
}

function providerIdentity(provider: PlanProvider): ProviderIdentity {
	if (provider.kind === 'scripted') return {kind: 'scripted', model: scriptedModel, script_digest: provider.responses?.digest ?? null, script_path: provider.responses?.path ?? null};
	return {kind: 'openai-compatible', model: provider.model, base_url: provider.base_url, api_key_env: provider.api_key_env ?? '', reasoning_effort: provider.reasoning_effort};
}
