import {resolve} from 'node:path';
import {caseGrade, judgeCase, loadCartridge, seedWorkspace, type LoadedCartridge, type LoadedCase} from '../../cartridges/index.js';
import type {Harness} from '../../harness/index.js';
import {builtinAgent} from '../../harness/index.js';
import {caseConversations, readResponseScript, type ScriptedConversation} from '../../scripted/index.js';
import {builtinTasks, getTask} from '../../tasks/index.js';
import {builtinAttemptTask, type AttemptTask} from '../attempt/index.js';
import {UsageError} from '../input-error.js';
import type {PlanProvider} from '../plan/plan-schema.js';

/** What `hlab agent` runs: a built-in task by id, or one case of a cartridge folder (played from a response script with the scripted provider). */
export type SubjectChoice = {task: string} | {cartridge: string; caseId: string; responsesPath: string | null; provider: PlanProvider};

/** The task as an attempt would hold it, the limits it runs under by default, and what the scripted provider plays. */
export interface Subject {
	task: AttemptTask;
	limits: Harness['limits'];
	conversations: ScriptedConversation[];
	cartridge: {dir: string; case_id: string} | null;
}

export async function resolveSubject(choice: SubjectChoice): Promise<Subject> {
	if ('task' in choice) return builtinSubject(choice.task);
	const cartridge = await loadedCartridge(resolve(choice.cartridge));
	const entry = cartridge.cases.find(item => item.id === choice.caseId);
	if (entry === undefined) throw new UsageError(`unknown case ${choice.caseId} (the cartridge has ${cartridge.cases.map(item => item.id).join(', ')})`, 'unknown_case');
	return {
		task: caseTask(cartridge, entry),
		limits: cartridge.harness.limits,
		conversations: await conversationsOf(choice, entry),
		cartridge: {dir: cartridge.dir, case_id: entry.id},
	};
}

function builtinSubject(id: string): Subject {
	const task = getTask(id);
	if (!task) throw new UsageError(`unknown task ${id} (known: ${builtinTasks.map(entry => entry.id).join(', ')})`, 'unknown_task');
	return {task: builtinAttemptTask(task), limits: builtinAgent.limits, conversations: [], cartridge: null};
}

async function loadedCartridge(dir: string): Promise<LoadedCartridge> {
	const loaded = await loadCartridge(dir);
	if (!loaded.ok) throw new UsageError(`the cartridge ${dir} is broken: ${loaded.problems.join('; ')}`, 'cartridge');
	return loaded.cartridge;
}

/** A case has no reference behaviour: the scripted provider plays it from the response script. */
async function conversationsOf(choice: Extract<SubjectChoice, {cartridge: string}>, entry: LoadedCase): Promise<ScriptedConversation[]> {
	if (choice.provider.kind !== 'scripted') {
		if (choice.responsesPath !== null) throw new UsageError('--responses applies only with --provider scripted', 'responses');
		return [];
	}
	if (choice.responsesPath === null) throw new UsageError('--cartridge with --provider scripted needs --responses FILE (a response script)', 'responses');
	const read = await readResponseScript(resolve(choice.responsesPath));
	if (!read.ok) throw new UsageError(read.problem, 'responses');
	return caseConversations([entry], read.script);
}

/** The case seeded and run with the cartridge's Harness and tools, then judged by its collectors and graders; expected data stays in memory. */
function caseTask(cartridge: LoadedCartridge, entry: LoadedCase): AttemptTask {
	return {
		id: entry.id,
		// The goal only: task.files and expected never reach the model.
		prompt: entry.case.task.goal,
		tools: [],
		setup: workspace => seedWorkspace(workspace, entry.case.task.files ?? {}),
		grade: async context => caseGrade(await judgeCase({cartridge, entry, outcome: context.outcome, workspace: context.workspace, cwd: context.stateDir, threshold: null, judge: null})),
		agent: {harness: cartridge.harness, cartridge: {data: cartridge, case_id: entry.id}},
	};
}
