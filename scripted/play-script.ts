import {ApiError} from './api-error.js';
import {offeredTools, type ChatRequest} from './chat-request.js';
import type {ScriptedConversation, ScriptTurn} from './response-script.js';

/** The assistant message a scripted conversation answers next. */
export interface ScriptedMessage {
	content: string | null;
	tool_calls: {id: string; type: 'function'; function: {name: string; arguments: string}}[];
}

/**
 * The turn of the script this request asks for (one turn per assistant message the conversation already holds).
 * A script that has run out is `script_exhausted`; a turn that calls a tool the request does not offer is
 * `script_unknown_tool`: both fail the run with that name in the message.
 */
export function playScript(chat: ChatRequest, conversation: ScriptedConversation, conversationId: string): ScriptedMessage {
	const answered = chat.messages.filter(message => message.role === 'assistant');
	const index = answered.length;
	const turn = nextTurn(chat, conversation);
	if (turn === undefined) {
		throw new ApiError(400, `script_exhausted: the response script of ${conversation.id} has ${conversation.turns.length} turn${conversation.turns.length === 1 ? '' : 's'}; the run asks for turn ${index + 1}.`, 'invalid_request_error', 'script_exhausted', 'messages');
	}
	const offered = offeredTools(chat);
	for (const call of turn.tool_calls) {
		if (!offered.has(call.function.name)) {
			throw new ApiError(400, `script_unknown_tool: turn ${index + 1} of the response script of ${conversation.id} calls ${call.function.name}, which the harness does not offer (${[...offered].join(', ') || 'no tools'}).`, 'invalid_request_error', 'script_unknown_tool', 'tools');
		}
	}
	const previousCalls = answered.reduce((count, message) => count + (message.role === 'assistant' ? message.tool_calls?.length ?? 0 : 0), 0);
	return {
		content: turn.content,
		// Ids in the server's own shape, so the simulated prompt cache follows the conversation.
		tool_calls: turn.tool_calls.map((call, offset) => ({id: `call_${conversationId}_${previousCalls + offset + 1}`, type: 'function', function: {name: call.function.name, arguments: call.function.arguments}})),
	};
}

/** The turn the conversation's history asks for next (its count of assistant messages), or undefined past the script's end. */
export function nextTurn(chat: ChatRequest, conversation: ScriptedConversation): ScriptTurn | undefined {
	return conversation.turns[chat.messages.filter(message => message.role === 'assistant').length];
}
