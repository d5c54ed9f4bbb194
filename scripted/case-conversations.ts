import type {LoadedCase} from '../cartridges/index.js';
import type {ResponseScript} from './response-script.js';

/** What the scripted provider plays from a response script: a conversation per case (by its goal) and per named prompt. */
export function caseConversations(cases: readonly LoadedCase[], script: ResponseScript): {id: string; prompt: string; turns: ResponseScript['tasks'][string]}[] {
	return [
		// A case the script has no turns for runs out at its first request: a named failure, never a silent pass.
		...cases.map(entry => ({id: entry.id, prompt: entry.case.task.goal, turns: script.tasks[entry.id] ?? []})),
		// Conversations the script names by prompt: a judge model's questions.
		...Object.entries(script.prompts ?? {}).map(([id, prompt]) => ({id, prompt, turns: script.tasks[id] ?? []})),
	];
}
