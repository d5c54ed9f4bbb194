import {jsonLines} from '../json-lines.js';

/*
 * Qwen Code's `--output-format stream-json` stdout: `system`/`init` first, then `assistant` messages (text and
 * `tool_use` blocks), `user` messages carrying `tool_result` blocks, `stream_event`s, and one `result` at the end:
 * `subtype: "success"` or `is_error: true` with `error.message`. A provider failure is an assistant text
 * `[API Error: …]` before the result.
 */

export interface QwenBlock {
	type: string;
	text?: string;
	id?: string;
	name?: string;
	input?: unknown;
	tool_use_id?: string;
	content?: unknown;
}

export interface QwenMessage {
	role: 'assistant' | 'user';
	content: QwenBlock[];
	usage: Record<string, unknown> | null;
}

export interface QwenResult {
	subtype: string;
	isError: boolean;
	text: string | null;
	errorMessage: string | null;
}

export interface QwenEvents {
	sawInit: boolean;
	messages: QwenMessage[];
	result: QwenResult | null;
}

export const apiErrorPrefix = '[API Error';

export function qwenEvents(stdout: string): QwenEvents {
	const events: QwenEvents = {sawInit: false, messages: [], result: null};
	for (const event of jsonLines(stdout)) {
		if (event.type === 'system' && event.subtype === 'init') events.sawInit = true;
		else if ((event.type === 'assistant' || event.type === 'user') && isRecord(event.message)) events.messages.push(messageOf(event.type, event.message));
		else if (event.type === 'result') events.result = resultOf(event);
	}
	return events;
}

function messageOf(role: 'assistant' | 'user', message: Record<string, unknown>): QwenMessage {
	const content = typeof message.content === 'string' ? [{type: 'text', text: message.content}] : Array.isArray(message.content) ? message.content.filter(isBlock) : [];
	return {role, content, usage: isRecord(message.usage) ? message.usage : null};
}

function resultOf(event: Record<string, unknown>): QwenResult {
	const error = isRecord(event.error) && typeof event.error.message === 'string' ? event.error.message : null;
	return {subtype: String(event.subtype ?? ''), isError: event.is_error === true, text: typeof event.result === 'string' ? event.result : null, errorMessage: error};
}

function isBlock(value: unknown): value is QwenBlock {
	return isRecord(value) && typeof value.type === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
