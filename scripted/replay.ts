import {ApiError} from './api-error.js';
import {textOf, type ChatRequestMessage} from './chat-request.js';
import type {ReferenceScript, ToolRequest} from '../tasks/reference/reference-script.js';
import type {ToolPlan} from './intents/index.js';

/** A tool call the conversation already holds, with the result the client sent for it. */
export interface PastCall {
	id: string;
	name: string;
	args: unknown;
	result: string;
}

export type NextAction = {kind: 'call'; request: ToolRequest} | {kind: 'done'; summary: string};

/** The tool calls of the conversation in order, each with its result; a call without a result is a bad request. */
export function pastCalls(messages: ChatRequestMessage[]): PastCall[] {
	const results = new Map<string, string>();
	for (const message of messages) if (message.role === 'tool') results.set(message.tool_call_id, textOf(message.content));
	const calls: PastCall[] = [];
	messages.forEach((message, index) => {
		if (message.role !== 'assistant') return;
		for (const call of message.tool_calls ?? []) {
			const result = results.get(call.id);
			if (result === undefined) throw new ApiError(400, `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${call.id}.`, 'invalid_request_error', null, `messages.[${index}].tool_calls`);
			let args: unknown;
			try {
				args = JSON.parse(call.function.arguments || '{}');
			} catch {
				args = call.function.arguments;
			}
			calls.push({id: call.id, name: call.function.name, args, result});
		}
	});
	return calls;
}

function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		return `{${Object.keys(value).sort().map(key => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * Replays the reference from its start, feeding it the results of the calls the conversation holds (read back as the
 * built-in tools' observations), and returns what it does next. The step is the count of the history's tool results;
 * a conversation whose calls are not the reference's (other tools; other arguments where the plan is exact) is refused.
 */
export function nextAction(script: ReferenceScript, calls: PastCall[], plan: ToolPlan): NextAction {
	const run = script();
	let state = run.next();
	for (const [index, call] of calls.entries()) {
		if (state.done) throw new ApiError(400, `The conversation continues after the scripted reference finished (tool call ${index + 1}).`, 'invalid_request_error', 'conversation_diverged', 'messages');
		const expected = state.value;
		const mapped = plan.call(expected, index);
		if (mapped === null || mapped.name !== call.name || (mapped.exact && canonical(mapped.args) !== canonical(call.args))) {
			const wanted = mapped === null ? expected.tool : `${mapped.name}${mapped.exact ? ` ${canonical(mapped.args)}` : ''}`;
			throw new ApiError(400, `The conversation diverges from the scripted reference at tool call ${index + 1}: expected ${wanted}, found ${call.name} ${canonical(call.args)}.`, 'invalid_request_error', 'conversation_diverged', 'messages');
		}
		state = run.next(mapped.observe(call.result));
	}
	return state.done ? {kind: 'done', summary: state.value} : {kind: 'call', request: state.value};
}
