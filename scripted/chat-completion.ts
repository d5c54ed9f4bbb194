import {randomBytes} from 'node:crypto';
import type {ScriptedReply} from './scripted-reply.js';

/** The id a chat completion (and each chunk of its stream) carries. */
export function completionId(): string {
	return `chatcmpl-${randomBytes(12).toString('hex')}`;
}

/** The usage object of chat completions, streamed or not. */
export function chatUsage({usage}: ScriptedReply): object {
	return {
		prompt_tokens: usage.promptTokens,
		completion_tokens: usage.completionTokens,
		total_tokens: usage.promptTokens + usage.completionTokens,
		prompt_tokens_details: {cached_tokens: usage.cachedTokens, cache_write_tokens: usage.writtenTokens},
		completion_tokens_details: {reasoning_tokens: 0},
	};
}

export function finishReason({message}: ScriptedReply): 'tool_calls' | 'stop' {
	return message.tool_calls.length > 0 ? 'tool_calls' : 'stop';
}

/** A reply as a (non-streamed) chat completion. */
export function chatCompletion(reply: ScriptedReply): object {
	const {message} = reply;
	return {
		id: completionId(),
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: reply.model,
		system_fingerprint: 'hlab-scripted',
		choices: [{
			index: 0,
			message: {role: 'assistant', content: message.content, refusal: null, ...(message.tool_calls.length > 0 ? {tool_calls: message.tool_calls} : {})},
			logprobs: null,
			finish_reason: finishReason(reply),
		}],
		usage: chatUsage(reply),
	};
}
