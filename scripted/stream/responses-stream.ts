import {outputItems, responseId, responseObject, type OutputItem} from '../responses-object.js';
import type {ResponsesRequest} from '../responses-request.js';
import type {ScriptedReply} from '../scripted-reply.js';
import type {ServerSentEvent} from './server-sent-events.js';
import {textPieces} from './text-pieces.js';

/**
 * A reply as a streamed response: created and in progress, each output item added, its text or arguments in
 * deltas, done, and `response.completed` with the whole response and its usage. Events are numbered in order.
 */
export function responsesStream(request: ResponsesRequest, reply: ScriptedReply): ServerSentEvent[] {
	const id = responseId();
	const items = outputItems(reply);
	const events: {type: string; [field: string]: unknown}[] = [
		{type: 'response.created', response: responseObject(request, reply, id, null)},
		{type: 'response.in_progress', response: responseObject(request, reply, id, null)},
		...items.flatMap((item, index) => itemEvents(item, index)),
		{type: 'response.completed', response: responseObject(request, reply, id, items)},
	];
	return events.map((event, sequence) => ({event: event.type, data: {...event, sequence_number: sequence}}));
}

function itemEvents(item: OutputItem, index: number): {type: string; [field: string]: unknown}[] {
	const at = {item_id: item.id, output_index: index};
	if (item.type === 'function_call') {
		return [
			{type: 'response.output_item.added', output_index: index, item: {...item, status: 'in_progress', arguments: ''}},
			...textPieces(item.arguments).map(delta => ({type: 'response.function_call_arguments.delta', ...at, delta})),
			{type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: item.arguments},
			{type: 'response.output_item.done', output_index: index, item},
		];
	}
	const part = item.content[0]!;
	const text = {...at, content_index: 0};
	return [
		{type: 'response.output_item.added', output_index: index, item: {...item, status: 'in_progress', content: []}},
		{type: 'response.content_part.added', ...text, part: {...part, text: ''}},
		...textPieces(part.text).map(delta => ({type: 'response.output_text.delta', ...text, delta, logprobs: []})),
		{type: 'response.output_text.done', ...text, text: part.text, logprobs: []},
		{type: 'response.content_part.done', ...text, part},
		{type: 'response.output_item.done', output_index: index, item},
	];
}
