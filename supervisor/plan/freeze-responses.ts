import {TasksResult} from '../../controller-protocol/index.js';
import {readResponseScript, type ResponseScript, type ScriptedConversation} from '../../scripted/response-script.js';
import {InputError} from '../input-error.js';
import type {Plan, PlanProvider} from './plan-schema.js';
import {taskById} from './task-selection.js';
import {instructionOf} from '../../tasks/harbor/read-harbor-task.js';

/** A response script that cannot be frozen or played: unreadable, invalid, or for a provider that is not scripted. */
export class ResponseScriptError extends InputError {
	readonly reason = 'response_script';
}

/**
 * The provider as frozen with a response script: its path and digest become part of the provider's identity. A selected
 * task the script has no conversation for is refused (it could only fail `script_exhausted`); an id of the script that
 * is neither a selected task nor one of its `prompts` is told to `warn` (a typo, or another plan's script).
 */
export async function freezeResponses(provider: PlanProvider, path: string | null, taskIds: readonly string[], warn: (line: string) => void): Promise<PlanProvider> {
	if (path === null) return provider;
	if (provider.kind !== 'scripted') throw new ResponseScriptError('--responses is played by the scripted provider: give it with --provider scripted');
	const read = await readResponseScript(path);
	if (!read.ok) throw new ResponseScriptError(read.problem);
	const {missing, unmatched} = scriptCoverage(read.script, taskIds);
	if (missing.length > 0) throw new ResponseScriptError(`the response script ${path} has no conversation for ${missing.length === 1 ? 'the selected task' : 'the selected tasks'} ${missing.join(', ')}`);
	if (unmatched.length > 0) warn(`the response script ${path} names ${unmatched.length === 1 ? 'an id' : 'ids'} that ${unmatched.length === 1 ? 'is' : 'are'} not in the selection and will not be played: ${unmatched.join(', ')}`);
	return {...provider, responses: {path, digest: read.digest}};
}

/** Which selected tasks the script gives no turn (absent or empty), and which of its ids no selected task or named prompt plays. */
function scriptCoverage(script: ResponseScript, taskIds: readonly string[]): {missing: string[]; unmatched: string[]} {
	const selected = new Set(taskIds);
	const prompts = new Set(Object.keys(script.prompts ?? {}));
	return {
		missing: taskIds.filter(id => (Object.hasOwn(script.tasks, id) ? script.tasks[id]! : []).length === 0),
		unmatched: Object.keys(script.tasks).filter(id => !selected.has(id) && !prompts.has(id)),
	};
}

/** Admission's view of the frozen script: the file must still give the frozen digest. */
export async function admitResponses(provider: PlanProvider): Promise<string[]> {
	if (provider.kind !== 'scripted' || provider.responses === undefined) return [];
	const read = await readResponseScript(provider.responses.path);
	if (!read.ok) return [`response script: ${read.problem}`];
	if (read.digest !== provider.responses.digest) return [`response script: ${provider.responses.path} was ${provider.responses.digest}, now ${read.digest} (edited after freezing)`];
	return [];
}

/**
 * The conversations the scripted provider plays for a plan: one per task, recognized by the task's prompt, with the
 * turns the script gives it (none when it names none, so the task's first request fails as `script_exhausted`).
 */
export function planConversations(plan: Plan, script: ResponseScript): ScriptedConversation[] {
	const prompts = plan.harbor !== undefined
		? plan.harbor.tasks.map(task => ({id: task.id, prompt: instructionOf(task)}))
		: plan.controller === null
		? plan.tasks.map(task => ({id: task.id, prompt: taskById(task.id)?.prompt ?? null}))
		: TasksResult.parse(plan.controller.tasks).tasks.map(task => ({id: task.id, prompt: task.prompt}));
	const tasks = prompts.filter((task): task is {id: string; prompt: string} => task.prompt !== null)
		.map(task => ({id: task.id, prompt: task.prompt, turns: script.tasks[task.id] ?? []}));
	const named = Object.entries(script.prompts ?? {}).map(([id, prompt]) => ({id, prompt, turns: script.tasks[id] ?? []}));
	return playable([...tasks, ...named]);
}

/** Tasks that share a prompt and play the same turns are one conversation to the provider; different turns stay and are refused there. */
function playable(conversations: ScriptedConversation[]): ScriptedConversation[] {
	return conversations.filter((conversation, index) => !conversations.slice(0, index)
		.some(earlier => earlier.prompt === conversation.prompt && JSON.stringify(earlier.turns) === JSON.stringify(conversation.turns)));
}

/** The conversations an attempt's scripted provider plays: none without a script; a script edited since admission is refused. */
export async function loadConversations(plan: Plan): Promise<ScriptedConversation[]> {
	const {provider} = plan;
	if (provider.kind !== 'scripted' || provider.responses === undefined) return [];
	const read = await readResponseScript(provider.responses.path);
	if (!read.ok) throw new ResponseScriptError(read.problem);
	if (read.digest !== provider.responses.digest) throw new ResponseScriptError(`the response script ${provider.responses.path} changed after freezing`);
	return planConversations(plan, read.script);
}
