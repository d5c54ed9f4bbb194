import OpenAI from 'openai';
import {z} from 'zod';
import type {ChatMessage, ToolDefinition} from '../../sdk/plugin.js';
import {EngineError} from '../engine-error.js';
import type {Deadline} from './deadline.js';
import {ReportedUsage} from './usage-meter.js';

/** The part of a chat-completions answer the loop relies on; anything else makes it a provider failure. */
export const CompletionAnswer = z.object({
	id: z.string().nullish(),
	model: z.string().nullish(),
	choices: z.array(z.object({
		finish_reason: z.string().nullish(),
		message: z.object({
			content: z.string().nullish(),
			tool_calls: z.array(z.object({
				id: z.string().nullish(),
				type: z.string().nullish(),
				function: z.object({name: z.string(), arguments: z.string().nullish()}),
			})).nullish(),
		}).passthrough(),
	}).passthrough()).min(1),
	usage: ReportedUsage.nullish(),
}).passthrough();
export type CompletionAnswer = z.infer<typeof CompletionAnswer>;

export interface CompletionRequest {
	model: string;
	messages: ChatMessage[];
	tools: ToolDefinition[];
	reasoning_effort?: string;
}

/** How a failed request is accounted: whether the provider may have processed it without reporting usage. */
export interface RequestFailure {
	error: EngineError;
	/** True when the request may have been processed but its usage is unknown. */
	usageUnknown: boolean;
}

export type RequestResult =
	| {ok: true; answer: CompletionAnswer; requestId: string | null; status: number}
	| {ok: false; failure: RequestFailure; status: number | null};

/** Sends one chat-completions request through the official client and classifies every way it can fail. */
export async function requestCompletion(client: OpenAI, request: CompletionRequest, deadline: Deadline): Promise<RequestResult> {
	let response: Response;
	try {
		response = await client.chat.completions
			.create(request as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, {signal: deadline.signal, timeout: Math.max(1, Math.floor(deadline.remainingMs()))})
			.asResponse();
	} catch (error) {
		return {ok: false, failure: classify(error, deadline), status: error instanceof OpenAI.APIError ? error.status ?? null : null};
	}
	let text: string;
	try {
		text = await deadline.race(response.text());
	} catch (error) {
		return {ok: false, failure: {error: deadline.reason ?? new EngineError('provider', `reading the answer failed: ${String(error)}`), usageUnknown: true}, status: response.status};
	}
	const requestId = response.headers.get('x-request-id');
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return {ok: false, failure: {error: new EngineError('provider', `the provider answered HTTP ${response.status} with a body that is not JSON: ${preview(text)}`), usageUnknown: true}, status: response.status};
	}
	const parsed = CompletionAnswer.safeParse(body);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return {ok: false, failure: {error: new EngineError('provider', `the provider's answer is not a chat completion (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}): ${preview(text)}`), usageUnknown: true}, status: response.status};
	}
	return {ok: true, answer: parsed.data, requestId, status: response.status};
}

function preview(text: string): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > 200 ? `${flat.slice(0, 200)}...` : flat || '(empty)';
}

function classify(error: unknown, deadline: Deadline): RequestFailure {
	if (error instanceof OpenAI.APIUserAbortError) return {error: deadline.reason ?? new EngineError('aborted', 'the request was cancelled'), usageUnknown: true};
	if (error instanceof OpenAI.APIConnectionTimeoutError) return {error: deadline.reason ?? new EngineError('timeout', 'the request reached the deadline'), usageUnknown: true};
	if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
		return {error: new EngineError('auth', `the provider refused the credentials (HTTP ${error.status}): ${error.message}`), usageUnknown: false};
	}
	if (error instanceof OpenAI.APIConnectionError) {
		const code = (error.cause as {code?: string} | undefined)?.code ?? (error.cause as {cause?: {code?: string}} | undefined)?.cause?.code;
		// A refused connection never reached the provider, so nothing was used.
		return {error: new EngineError('provider', `cannot reach the provider: ${error.message}${code ? ` (${code})` : ''}`), usageUnknown: code !== 'ECONNREFUSED'};
	}
	if (error instanceof OpenAI.APIError) return {error: new EngineError('provider', `the provider answered an error (HTTP ${error.status ?? 'unknown'}): ${error.message}`), usageUnknown: false};
	if (deadline.reason) return {error: deadline.reason, usageUnknown: true};
	return {error: new EngineError('provider', `the request failed: ${error instanceof Error ? error.message : String(error)}`), usageUnknown: true};
}

/** Whether a failure is worth another attempt: rate limits, server errors, and connections that never got an answer. */
export function isTransient(result: RequestResult): boolean {
	if (result.ok || result.failure.error.reason !== 'provider') return false;
	if (result.status === null) return true;
	return result.status === 429 || result.status >= 500;
}
