import {z} from 'zod';
import {ApiError} from './api-error.js';

// Parts other than text (images, a provider's cache hints) are accepted and read as no text.
const Part = z.object({type: z.string(), text: z.string().optional()}).passthrough()
	.refine(part => part.type !== 'text' || typeof part.text === 'string', 'a text part has a text');
const Text = z.union([z.string(), z.array(Part)]);
const ToolCall = z.object({id: z.string().min(1), type: z.literal('function').optional(), function: z.object({name: z.string().min(1), arguments: z.string()}).passthrough()}).passthrough();

export const ChatRequestMessage = z.discriminatedUnion('role', [
	z.object({role: z.literal('system'), content: Text}).passthrough(),
	z.object({role: z.literal('developer'), content: Text}).passthrough(),
	z.object({role: z.literal('user'), content: Text}).passthrough(),
	// Agents send an assistant turn that only calls tools with content '', null or absent.
	z.object({role: z.literal('assistant'), content: Text.nullish(), tool_calls: z.array(ToolCall).nullish()}).passthrough(),
	z.object({role: z.literal('tool'), content: Text, tool_call_id: z.string().min(1)}).passthrough(),
]);
export type ChatRequestMessage = z.infer<typeof ChatRequestMessage>;

// Fields agents send that do not change what is played (max_completion_tokens, store, parallel_tool_calls, strict...) pass through unread.
export const ChatRequest = z.object({
	model: z.string().min(1),
	messages: z.array(ChatRequestMessage).min(1),
	tools: z.array(z.object({type: z.literal('function'), function: z.object({name: z.string().min(1)}).passthrough()}).passthrough()).nullish(),
	tool_choice: z.union([z.string(), z.object({}).passthrough()]).nullish(),
	stream: z.boolean().nullish(),
	stream_options: z.object({include_usage: z.boolean().nullish()}).passthrough().nullish(),
	n: z.number().int().nullish(),
}).passthrough();
export type ChatRequest = z.infer<typeof ChatRequest>;

/** The text of a message content (string or text parts). */
export function textOf(content: z.infer<typeof Text> | null | undefined): string {
	if (content == null) return '';
	return typeof content === 'string' ? content : content.map(part => (part.type === 'text' ? part.text ?? '' : '')).join('');
}

/** The names of the tools the model may call in this request: none when it offers none or says `tool_choice: 'none'`. */
export function offeredTools(chat: ChatRequest): Set<string> {
	if (chat.tool_choice === 'none') return new Set();
	return new Set((chat.tools ?? []).map(tool => tool.function.name));
}

/** Validates a parsed JSON body as a chat-completions request, or throws the API's 400. */
export function parseChatRequest(body: unknown): ChatRequest {
	const parsed = ChatRequest.safeParse(body);
	if (!parsed.success) throw invalidRequest(parsed.error);
	if (parsed.data.n != null && parsed.data.n !== 1) throw new ApiError(400, 'The scripted provider answers one choice (n must be 1).', 'invalid_request_error', 'unsupported_value', 'n');
	return parsed.data;
}

/** The API's 400 for a body its schema refuses, naming the first field at fault. */
export function invalidRequest(error: z.ZodError): ApiError {
	const issue = error.issues[0]!;
	const param = issue.path.map(String).join('.') || null;
	return new ApiError(400, `Invalid request: ${param ? `${param}: ` : ''}${issue.message}`, 'invalid_request_error', 'invalid_value', param);
}
