import {chatUsage, completionId, finishReason} from '../chat-completion.js';
import type {ScriptedReply} from '../scripted-reply.js';
import type {ServerSentEvent} from './server-sent-events.js';
import {textPieces} from './text-pieces.js';

/**
 * A reply as a streamed chat completion: the role first, the content in pieces, each tool call opened with its
 * index, id and name and then its arguments in fragments, the finish reason, the usage chunk when asked, [DONE].
 */
export function chatStream(reply: ScriptedReply, includeUsage: boolean): ServerSentEvent[] {
	const base = {id: completionId(), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: reply.model, system_fingerprint: 'hlab-scripted'};
	// With include_usage, every chunk but the last carries usage: null (as the API does).
	const chunk = (delta: object, finish: string | null = null): ServerSentEvent => ({data: {...base, choices: [{index: 0, delta, logprobs: null, finish_reason: finish}], ...(includeUsage ? {usage: null} : {})}});
	const {content, tool_calls: calls} = reply.message;
	return [
		chunk({role: 'assistant', content: '', refusal: null}),
		...textPieces(content ?? '').map(piece => chunk({content: piece})),
		...calls.flatMap((call, index) => [
			chunk({tool_calls: [{index, id: call.id, type: 'function', function: {name: call.function.name, arguments: ''}}]}),
			...textPieces(call.function.arguments).map(fragment => chunk({tool_calls: [{index, function: {arguments: fragment}}]})),
		]),
		chunk({}, finishReason(reply)),
		...(includeUsage ? [{data: {...base, choices: [], usage: chatUsage(reply)}}] : []),
		{data: '[DONE]'},
	];
}
