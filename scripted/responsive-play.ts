import {sha256} from '../files/sha256.js';
import {ApiError} from './api-error.js';
import type {ChatRequest} from './chat-request.js';
import {toolPlanFor, type ToolPlan} from './intents/index.js';
import {matchPrompt} from './prompt-match.js';
import {nextAction, pastCalls, type NextAction} from './replay.js';
import type {ScriptedTask} from './scripted-task.js';

/**
 * The responsive scripted model: it plays a task's reference behaviour, but like a real model it responds to the
 * harness it is given. Before working it looks around the workspace a seeded number of times (0-3 per task and
 * seed: the variation across replicates); it cannot look with a tool the request does not offer, and it follows
 * the list_files description when that says to list at most once. Its model name carries the seed.
 */
const modelPrefix = 'responsive-seed-';

/** The model name of the responsive model on one seed. */
export function responsiveModel(seed: number): string {
	return `${modelPrefix}${seed}`;
}

/** The seed a model name asks for, or null when it is not the responsive model. */
export function responsiveSeed(model: string): number | null {
	if (!model.startsWith(modelPrefix)) return null;
	const seed = Number(model.slice(modelPrefix.length));
	return Number.isSafeInteger(seed) && seed >= 0 ? seed : null;
}

const lookAround = {tool: 'list_files', args: {path: '.'}, note: 'Looking around the workspace first.'};

/** What the responsive model does next in this conversation, and the task it recognized. */
export function playResponsive(chat: ChatRequest, seed: number, tasks: readonly ScriptedTask[], plan: ToolPlan = toolPlanFor(chat)): {task: ScriptedTask; next: NextAction; calls: number} {
	const task = taskOf(chat, tasks);
	const looks = looksWanted(chat, seed, task.id);
	const calls = pastCalls(chat.messages);
	const looked = calls.slice(0, looks);
	if (looked.some(call => call.name !== plan.call(lookAround, 0)?.name)) throw new ApiError(400, 'The conversation diverges from the responsive model\'s opening.', 'invalid_request_error', 'conversation_diverged', 'messages');
	const next: NextAction = calls.length < looks ? {kind: 'call', request: lookAround} : nextAction(task.reference, calls.slice(looks), plan);
	return {task, next, calls: calls.length};
}

/** The task whose prompt the user messages carry (a harness's template may wrap it); the longest match wins. */
function taskOf(chat: ChatRequest, tasks: readonly ScriptedTask[]): ScriptedTask {
	const task = matchPrompt(chat, tasks);
	if (task === undefined) throw new ApiError(400, 'The responsive scripted model knows no task whose prompt the user messages carry.', 'invalid_request_error', 'unknown_task', 'messages');
	return task;
}

/** How many times the model looks around before working: seeded, and bounded by what the harness offers and says. */
function looksWanted(chat: ChatRequest, seed: number, taskId: string): number {
	const listing = (chat.tools ?? []).find(tool => tool.function.name === lookAround.tool);
	if (listing === undefined) return 0;
	const wanted = Number.parseInt(sha256(`${seed}:${taskId}`).slice('sha256:'.length, 'sha256:'.length + 2), 16) % 4;
	const description = typeof listing.function['description'] === 'string' ? listing.function['description'] : '';
	return /at most once/i.test(description) ? Math.min(wanted, 1) : wanted;
}
