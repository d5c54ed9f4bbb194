import {z} from 'zod';
import {ApiError} from './api-error.js';

const Text = z.union([z.string(), z.array(z.object({type: z.literal('text'), text: z.string()}).passthrough())]);
const ToolCall = z.object({id: z.string().min(1), type: z.literal('function'), function: z.object({name: z.string().min(1), arguments: z.string()})});

export const ChatRequestMessage = z.discriminatedUnion('role', [
	z.object({role: z.literal('system'), content: Text}).passthrough(),
	z.object({role: z.literal('developer'), content: Text}).passthrough(),
	z.object({role: z.literal('user'), content: Text}).passthrough(),
	z.object({role: z.literal('assistant'), content: Text.nullish(), tool_calls: z.array(ToolCall).nullish()}).passthrough(),
	z.object({role: z.literal('tool'), content: Text, tool_call_id: z.string().min(1)}).passthrough(),
]);
export type ChatRequestMessage = z.infer<typeof ChatRequestMessage>;

export const ChatRequest = z.object({
	model: z.string().min(1),
	messages: z.array(ChatRequestMessage).min(1),
	tools: z.array(z.object({type: z.literal('function'), function: z.object({name: z.string().min(1)}).passthrough()}).passthrough()).optional(),
	stream: z.boolean().nullish(),
	n: z.number().int().nullish(),
}).passthrough();
export type ChatRequest = z.infer<typeof ChatRequest>;

/** The text of a message content (string or text parts). */
export function textOf(content: z.infer<typeof Text> | null | undefined): string {
	if (content == null) return '';
	return typeof content === 'string' ? content : content.map(part => part.text).join('');
}

/** Validates a parsed JSON body as a chat-completions request, or throws the API's 400. */
export function parseChatRequest(body: unknown): ChatRequest {
	const parsed = ChatRequest.safeParse(body);
	if (!parsed.success) {
		const issue = parsed.error.issues[0]!;
		const param = issue.path.map(String).join('.') || null;
		throw new ApiError(400, `Invalid request: ${param ? `${param}: ` : ''}${issue.message}`, 'invalid_request_error', 'invalid_value', param);
	}
	if (parsed.data.stream) throw new ApiError(400, 'Streaming is not supported by the scripted provider; send stream: false.', 'invalid_request_error', 'unsupported_value', 'stream');
	if (parsed.data.n != null && parsed.data.n !== 1) throw new ApiError(400, 'The scripted provider answers one choice (n must be 1).', 'invalid_request_error', 'unsupported_value', 'n');
	return parsed.data;
}
