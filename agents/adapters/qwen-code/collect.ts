import type {AgentCollected, AgentOutputs, TrajectoryMessage} from '../../adapter-contract.js';
import {count, usageClaim} from '../usage-claim.js';
import {apiErrorPrefix, qwenEvents, type QwenBlock, type QwenMessage} from './events.js';

/** Qwen Code's messages as harness-lab's trajectory (its stream has no user prompt: the first message is the model's). */
export function collect(outputs: AgentOutputs): AgentCollected {
	const {messages, result} = qwenEvents(outputs.stdout);
	// A failed request shows as an assistant text `[API Error: …]`, and a response's text before its tool call as an
	// assistant message of its own: both with zero usage, neither an answered turn of its own.
	const answered = messages.filter(message => message.role === 'assistant' && !textOf(message.content).startsWith(apiErrorPrefix) && hasTokens(message));
	return {
		messages: joinSplitResponses(messages.flatMap(trajectoryMessages)),
		usageClaim: usageClaim(answered.map(message => {
			const usage = message.usage ?? {};
			return {input: count(usage.input_tokens), output: count(usage.output_tokens), cacheRead: count(usage.cache_read_input_tokens), cacheWrite: count(usage.cache_creation_input_tokens), costUsd: null};
		})),
		finalText: result !== null && !result.isError && result.text !== '' ? result.text : null,
	};
}

function trajectoryMessages(message: QwenMessage): TrajectoryMessage[] {
	if (message.role === 'user') {
		const results = message.content.filter(block => block.type === 'tool_result');
		if (results.length === 0) return [{role: 'user', content: textOf(message.content)}];
		return results.map(block => ({role: 'tool', content: resultText(block.content), tool_call_id: block.tool_use_id ?? ''}));
	}
	const calls = message.content.filter(block => block.type === 'tool_use');
	const text = textOf(message.content);
	return [{
		role: 'assistant',
		content: text === '' ? null : text,
		...(calls.length > 0 ? {tool_calls: calls.map(call => ({id: call.id ?? '', name: call.name ?? '', arguments: JSON.stringify(call.input ?? {})}))} : {}),
	}];
}

function hasTokens(message: QwenMessage): boolean {
	return (count(message.usage?.input_tokens) ?? 0) > 0 || (count(message.usage?.output_tokens) ?? 0) > 0;
}

/** One response's text and its calls, which Qwen Code streams as two assistant messages, as the one message they were. */
function joinSplitResponses(messages: TrajectoryMessage[]): TrajectoryMessage[] {
	const joined: TrajectoryMessage[] = [];
	for (const message of messages) {
		const previous = joined.at(-1);
		if (previous?.role === 'assistant' && message.role === 'assistant' && previous.tool_calls === undefined) {
			joined[joined.length - 1] = {...message, content: [previous.content, message.content].filter(text => text !== null).join('\n') || null};
		} else joined.push(message);
	}
	return joined;
}

function textOf(blocks: QwenBlock[]): string {
	return blocks.filter(block => block.type === 'text').map(block => block.text ?? '').join('');
}

/** A tool result's content: a string, or text parts. */
function resultText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return content.map(part => (typeof part === 'object' && part !== null && typeof part.text === 'string' ? part.text : '')).join('');
}
