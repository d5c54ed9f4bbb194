import {z} from 'zod';
import {ApiError} from './api-error.js';
import {invalidRequest, type ChatRequest, type ChatRequestMessage} from './chat-request.js';

/*
 * A Responses API request (`POST /v1/responses`), read as the chat-completions request the player reads: the
 * instructions as a system message, each input item as the message it stands for. The provider keeps no state,
 * so the whole history comes in `input` (what agents send with `store: false`); `previous_response_id` is refused.
 */

const Part = z.object({type: z.string(), text: z.string().optional()}).passthrough();
const Content = z.union([z.string(), z.array(Part)]);

const MessageItem = z.object({type: z.literal('message'), role: z.enum(['user', 'system', 'developer', 'assistant']), content: Content}).passthrough();
const FunctionCallItem = z.object({type: z.literal('function_call'), call_id: z.string().min(1), name: z.string().min(1), arguments: z.string()}).passthrough();
const FunctionCallOutputItem = z.object({type: z.literal('function_call_output'), call_id: z.string().min(1), output: Content}).passthrough();
// A model's reasoning sent back with the history: the scripted model has none to read.
const ReasoningItem = z.object({type: z.literal('reasoning')}).passthrough();
// A message may leave out its type (the API's easy form); the type then chooses the item's schema, so an error names its field.
const InputItem = z.preprocess(
	item => (typeof item === 'object' && item !== null && !('type' in item) ? {...item, type: 'message'} : item),
	z.discriminatedUnion('type', [MessageItem, FunctionCallItem, FunctionCallOutputItem, ReasoningItem]),
);
type InputItem = z.infer<typeof InputItem>;

const FunctionTool = z.object({type: z.literal('function'), name: z.string().min(1), description: z.string().nullish(), parameters: z.unknown().optional(), strict: z.boolean().nullish()}).passthrough();
// Hosted tools (web search, a shell of the provider's) pass unread: the scripted model never calls them.
const Tool = z.object({type: z.string()}).passthrough().superRefine((tool, context) => {
	if (tool.type !== 'function') return;
	const parsed = FunctionTool.safeParse(tool);
	for (const issue of parsed.error?.issues ?? []) context.addIssue({code: 'custom', message: issue.message, path: issue.path});
});

export const ResponsesRequest = z.object({
	model: z.string().min(1),
	// A string is the easy form of one user message.
	input: z.preprocess(input => (typeof input === 'string' ? [{type: 'message', role: 'user', content: input}] : input), z.array(InputItem).min(1)),
	instructions: z.string().nullish(),
	tools: z.array(Tool).nullish(),
	tool_choice: z.union([z.string(), z.object({}).passthrough()]).nullish(),
	stream: z.boolean().nullish(),
	previous_response_id: z.string().nullish(),
}).passthrough();
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

/** Validates a parsed JSON body as a Responses request, or throws the API's 400. */
export function parseResponsesRequest(body: unknown): ResponsesRequest {
	const parsed = ResponsesRequest.safeParse(body);
	if (!parsed.success) throw invalidRequest(parsed.error);
	if (parsed.data.previous_response_id) throw new ApiError(400, 'The scripted provider keeps no responses: send the whole history in input (store: false) instead of previous_response_id.', 'invalid_request_error', 'unsupported_value', 'previous_response_id');
	return parsed.data;
}

/** The chat-completions request a Responses request stands for: the same history, so the same step is played. */
export function chatRequestOf(request: ResponsesRequest): ChatRequest {
	const messages: ChatRequestMessage[] = request.instructions ? [{role: 'system', content: request.instructions}] : [];
	for (const item of request.input) addItem(messages, item);
	const tools = (request.tools ?? []).flatMap(tool => {
		const fn = FunctionTool.safeParse(tool);
		return fn.success ? [{type: 'function' as const, function: {name: fn.data.name, description: fn.data.description ?? undefined, parameters: fn.data.parameters, strict: fn.data.strict ?? undefined}}] : [];
	});
	if (messages.length === 0) throw new ApiError(400, 'Invalid request: input holds no message.', 'invalid_request_error', 'invalid_value', 'input');
	return {model: request.model, messages, tools, tool_choice: request.tool_choice};
}

/** Adds one input item to the history; function calls join the assistant message they follow, as one turn. */
function addItem(messages: ChatRequestMessage[], item: InputItem): void {
	const last = messages.at(-1);
	if (item.type === 'reasoning') return;
	if (item.type === 'function_call') {
		const call = {id: item.call_id, type: 'function' as const, function: {name: item.name, arguments: item.arguments}};
		if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
		else messages.push({role: 'assistant', content: null, tool_calls: [call]});
		return;
	}
	if (item.type === 'function_call_output') {
		messages.push({role: 'tool', tool_call_id: item.call_id, content: textOf(item.output)});
		return;
	}
	messages.push(item.role === 'assistant' ? {role: 'assistant', content: textOf(item.content), tool_calls: null} : {role: item.role, content: textOf(item.content)});
}

/** The text of item content: a string, or its parts' texts (input_text, output_text). */
function textOf(content: z.infer<typeof Content>): string {
	return typeof content === 'string' ? content : content.map(part => part.text ?? '').join('');
}
