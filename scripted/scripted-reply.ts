import {ApiError} from './api-error.js';
import {offeredTools, type ChatRequest} from './chat-request.js';
import {toolPlanFor, type ToolPlan} from './intents/index.js';
import {conversationOf, newConversationId, type PromptCache, promptParts} from './prompt-cache.js';
import {nextAction, pastCalls, type NextAction} from './replay.js';
import {nextTurn, playScript, type ScriptedMessage} from './play-script.js';
import type {ScriptedConversation} from './response-script.js';
import {matchPrompt} from './prompt-match.js';
import {playResponsive, responsiveSeed} from './responsive-play.js';
import type {ScriptedTask} from './scripted-task.js';
import {encode} from './tokenizer.js';

/** What the scripted provider plays: the built-in tasks' references and the response scripts' conversations. */
export interface Repertoire {
	tasks: readonly ScriptedTask[];
	conversations: readonly ScriptedConversation[];
}

/** One answer of the provider before it is shaped for an API (chat completions or Responses, streamed or not). */
export interface ScriptedReply {
	model: string;
	message: ScriptedMessage;
	usage: {promptTokens: number; cachedTokens: number; writtenTokens: number; completionTokens: number};
}

/** What an aside (a request that offers no tools, e.g. an agent asking for a title) is answered. */
export const asideText = 'Scripted session';

/**
 * Plays the conversation one step further, the step chosen from the request's history alone. A request that offers
 * no tools, where the step would call one, is an aside: it gets a short text and plays no step.
 */
export function replyTo(chat: ChatRequest, {tasks, conversations}: Repertoire, cache: PromptCache): ScriptedReply {
	const conversation = conversationOf(chat) ?? newConversationId();
	const scripted = scriptedConversation(chat, conversations);
	const aside = offeredTools(chat).size === 0;
	if (scripted && !(aside && (nextTurn(chat, scripted)?.tool_calls.length ?? 0) > 0)) return withUsage(chat, playScript(chat, scripted, conversation), conversation, cache);
	if (aside) return withUsage(chat, {content: asideText, tool_calls: []}, conversation, cache);
	return withUsage(chat, playTask(chat, tasks, conversation), conversation, cache);
}

/** The script whose prompt the user messages carry (a harness's template or an agent's context may wrap it). */
function scriptedConversation(chat: ChatRequest, conversations: readonly ScriptedConversation[]): ScriptedConversation | undefined {
	return matchPrompt(chat, conversations);
}

/** The task's reference (or the responsive model) one step further, on the tools the request offers: one tool call, or the final answer. */
function playTask(chat: ChatRequest, tasks: readonly ScriptedTask[], conversation: string): ScriptedMessage {
	const plan = toolPlanFor(chat);
	const seed = responsiveSeed(chat.model);
	const {task, next, calls} = seed === null ? playReference(chat, tasks, plan) : playResponsive(chat, seed, tasks, plan);
	const callId = `call_${conversation}_${calls + 1}`;
	if (next.kind === 'done') {
		const finish = plan.finish(next.summary);
		if (finish === null) throw missingTool(task, 'done');
		// An agent without a finishing tool ends its run on a text with no tool calls.
		if (finish.kind === 'text') return {content: next.summary, tool_calls: []};
		return {content: null, tool_calls: [{id: callId, type: 'function', function: {name: finish.name, arguments: JSON.stringify(finish.args)}}]};
	}
	const mapped = plan.call(next.request, calls);
	if (mapped === null) throw missingTool(task, next.request.tool);
	return {content: next.request.note ?? null, tool_calls: [{id: callId, type: 'function', function: {name: mapped.name, arguments: JSON.stringify(mapped.args)}}]};
}

function missingTool(task: ScriptedTask, tool: string): ApiError {
	return new ApiError(400, `The scripted reference of ${task.id} needs the tool '${tool}', which the request does not offer.`, 'invalid_request_error', 'missing_tool', 'tools');
}

/** The reference behaviour as it is: the task whose prompt the user messages carry, played one step further. */
function playReference(chat: ChatRequest, tasks: readonly ScriptedTask[], plan: ToolPlan): {task: ScriptedTask; next: NextAction; calls: number} {
	const task = matchPrompt(chat, tasks);
	if (!task) throw new ApiError(400, 'The scripted provider knows no task with this prompt (a user message must be or carry a built-in task\'s prompt).', 'invalid_request_error', 'unknown_task', 'messages');
	const calls = pastCalls(chat.messages);
	try {
		return {task, next: nextAction(task.reference, calls, plan), calls: calls.length};
	} catch (error) {
		if (error instanceof ApiError) throw error;
		throw new ApiError(500, `The reference behaviour of ${task.id} failed: ${error instanceof Error ? error.message : String(error)}`, 'server_error');
	}
}

/** The message with its token usage: the prompt from the tokenizer and the simulated cache, the completion from its text and calls. */
function withUsage(chat: ChatRequest, message: ScriptedMessage, conversation: string, cache: PromptCache): ScriptedReply {
	const prompt = cache.account(conversation, promptParts(chat));
	const completionTokens = encode(`${message.content ?? ''}${message.tool_calls.map(call => `${call.function.name}${call.function.arguments}`).join('')}`).length;
	return {model: chat.model, message, usage: {...prompt, completionTokens}};
}
