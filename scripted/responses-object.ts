import {randomBytes} from 'node:crypto';
import type {ResponsesRequest} from './responses-request.js';
import type {ScriptedReply} from './scripted-reply.js';

/** An output item of a response: the assistant's text, or one function call. */
export type OutputItem =
	| {id: string; type: 'message'; status: 'completed'; role: 'assistant'; content: {type: 'output_text'; text: string; annotations: []; logprobs: []}[]}
	| {id: string; type: 'function_call'; status: 'completed'; call_id: string; name: string; arguments: string};

function itemId(prefix: string): string {
	return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** The reply's output: its text as a message (when it has one), then each call as a function_call item. */
export function outputItems({message}: ScriptedReply): OutputItem[] {
	const text: OutputItem[] = message.content ? [{id: itemId('msg'), type: 'message', status: 'completed', role: 'assistant', content: [{type: 'output_text', text: message.content, annotations: [], logprobs: []}]}] : [];
	return [...text, ...message.tool_calls.map((call): OutputItem => ({id: itemId('fc'), type: 'function_call', status: 'completed', call_id: call.id, name: call.function.name, arguments: call.function.arguments}))];
}

/** The response object, in progress (no output, no usage yet) or completed. */
export function responseObject(request: ResponsesRequest, reply: ScriptedReply, id: string, output: OutputItem[] | null): object {
	const {usage} = reply;
	return {
		id,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		status: output === null ? 'in_progress' : 'completed',
		error: null,
		incomplete_details: null,
		instructions: request.instructions ?? null,
		max_output_tokens: null,
		model: reply.model,
		output: output ?? [],
		parallel_tool_calls: true,
		previous_response_id: null,
		reasoning: {effort: null, summary: null},
		store: false,
		temperature: 1,
		text: {format: {type: 'text'}},
		tool_choice: request.tool_choice ?? 'auto',
		tools: request.tools ?? [],
		top_p: 1,
		truncation: 'disabled',
		usage: output === null ? null : {
			input_tokens: usage.promptTokens,
			input_tokens_details: {cached_tokens: usage.cachedTokens},
			output_tokens: usage.completionTokens,
			output_tokens_details: {reasoning_tokens: 0},
			total_tokens: usage.promptTokens + usage.completionTokens,
		},
		metadata: {},
	};
}

export function responseId(): string {
	return itemId('resp');
}
