import type OpenAI from 'openai';
import {z} from 'zod';
import type {ChatMessage, ToolDefinition} from '../../sdk/plugin.js';
import {EngineError} from '../engine-error.js';
import type {Deadline} from '../deadline.js';
import {ReportedUsage} from '../loop/usage-meter.js';
import {loadOpenAI} from './openai-client.js';

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

/** How a failed request is accounted, and what the retry policy reads from it. */
export interface RequestFailure {
	error: EngineError;
	/** True when the request may have been processed but its usage is unknown. */
	usageUnknown: boolean;
	/**
	 * `status`: an error answer; `connection`: no answer, or one cut off mid-way; `request_timeout`: this one request
	 * took too long; `ended`: the task's deadline or cancellation; `answer`: an answer that is not a chat completion.
	 */
	kind: 'status' | 'connection' | 'request_timeout' | 'ended' | 'answer';
	status: number | null;
	/** The headers of an error answer (a wait it advises), when there was one. */
	headers: Headers | null;
}

export type RequestResult =
	| {ok: true; answer: CompletionAnswer; requestId: string | null; status: number}
	| {ok: false; failure: RequestFailure; status: number | null};

/**
 * Sends one chat-completions request through the official client and classifies every way it can fail.
 * `requestTimeoutMs` bounds this one request (headers and body); the task's deadline bounds it in any case.
 */
export async function requestCompletion(client: OpenAI, request: CompletionRequest, deadline: Deadline, requestTimeoutMs: number | null = null): Promise<RequestResult> {
	// Already loaded with the client: its error classes tell the failures apart.
	const openai = await loadOpenAI();
	const attempt = requestTimeoutMs === null ? null : AbortSignal.timeout(requestTimeoutMs);
	const signal = attempt === null ? deadline.signal : AbortSignal.any([deadline.signal, attempt]);
	const cut = (): RequestFailure | null => {
		if (deadline.reason) return {error: deadline.reason, usageUnknown: true, kind: 'ended', status: null, headers: null};
		if (attempt?.aborted) return {error: new EngineError('provider', `the request took longer than ${requestTimeoutMs} ms`), usageUnknown: true, kind: 'request_timeout', status: null, headers: null};
		return null;
	};
	let response: Response;
	try {
		response = await client.chat.completions
			.create(request as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, {signal, timeout: Math.max(1, Math.floor(deadline.remainingMs()))})
			.asResponse();
	} catch (error) {
		const status = error instanceof openai.APIError ? error.status ?? null : null;
		return {ok: false, failure: cut() ?? classify(openai, error, deadline), status};
	}
	let text: string;
	try {
		text = await untilAborted(response.text(), signal);
	} catch (error) {
		// An answer cut off mid-way is a lost connection: the provider may have done the work, so usage is unknown.
		const failure = cut() ?? {error: new EngineError('provider', `reading the answer failed: ${String(error)}`), usageUnknown: true, kind: 'connection' as const, status: response.status, headers: null};
		return {ok: false, failure, status: response.status};
	}
	const requestId = response.headers.get('x-request-id');
	const garbled = (message: string): RequestResult => ({ok: false, failure: {error: new EngineError('provider', message), usageUnknown: true, kind: 'answer', status: response.status, headers: null}, status: response.status});
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return garbled(`the provider answered HTTP ${response.status} with a body that is not JSON: ${preview(text)}`);
	}
	const parsed = CompletionAnswer.safeParse(body);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return garbled(`the provider's answer is not a chat completion (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}): ${preview(text)}`);
	}
	return {ok: true, answer: parsed.data, requestId, status: response.status};
}

/** Settles like `promise`, or rejects as soon as `signal` aborts (the deadline, or this request's timeout). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) {
		promise.catch(() => undefined);
		return Promise.reject(signal.reason);
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = (): void => reject(signal.reason);
		signal.addEventListener('abort', onAbort, {once: true});
		promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}

function preview(text: string): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > 200 ? `${flat.slice(0, 200)}...` : flat || '(empty)';
}

function classify(openai: typeof OpenAI, error: unknown, deadline: Deadline): RequestFailure {
	const ended = (fallback: EngineError): RequestFailure => ({error: deadline.reason ?? fallback, usageUnknown: true, kind: 'ended', status: null, headers: null});
	if (error instanceof openai.APIUserAbortError) return ended(new EngineError('aborted', 'the request was cancelled'));
	if (error instanceof openai.APIConnectionTimeoutError) return ended(new EngineError('timeout', 'the request reached the deadline'));
	if (error instanceof openai.APIConnectionError) {
		const code = (error.cause as {code?: string} | undefined)?.code ?? (error.cause as {cause?: {code?: string}} | undefined)?.cause?.code;
		// A refused connection never reached the provider, so nothing was used.
		return {error: new EngineError('provider', `cannot reach the provider: ${error.message}${code ? ` (${code})` : ''}`), usageUnknown: code !== 'ECONNREFUSED', kind: 'connection', status: null, headers: null};
	}
	if (error instanceof openai.APIError) {
		const status = error.status ?? null;
		const headers = error.headers ?? null;
		if (error instanceof openai.AuthenticationError || error instanceof openai.PermissionDeniedError) {
			return {error: new EngineError('auth', `the provider refused the credentials (HTTP ${status}): ${error.message}`), usageUnknown: false, kind: 'status', status, headers};
		}
		return {error: new EngineError('provider', `the provider answered an error (HTTP ${status ?? 'unknown'}): ${error.message}`), usageUnknown: false, kind: 'status', status, headers};
	}
	if (deadline.reason) return ended(deadline.reason);
	return {error: new EngineError('provider', `the request failed: ${error instanceof Error ? error.message : String(error)}`), usageUnknown: true, kind: 'connection', status: null, headers: null};
}
