import {ReportedUsage} from '../../engine/loop/usage-meter.js';
import {jsonOrNull} from '../../files/json-or-null.js';
import {SseParser} from './sse-parser.js';
import type {TurnFlavour} from './turn-request.js';

/** A body bigger than this is still forwarded whole, but not read (its usage becomes unknown). */
const readLimit = 32 * 1024 * 1024;

/** What one answered turn said about itself: the provider's usage if it reported one, and its output text for an estimate. */
export interface TurnReading {
	usage: ReportedUsage | null;
	output: string[];
	/** False when the body was too big to read: nothing is known of it. */
	read: boolean;
}

/**
 * Reads one model answer as it passes through the proxy, chunk by chunk, without holding the chunks back: an event
 * stream is parsed as it arrives (chat: the `usage` of the final chunk; Responses: `response.completed`'s), a JSON body
 * is kept until its end. The text it produced is kept too, for an estimate when the provider reports no usage.
 */
export class TurnResponse {
	private readonly parser: SseParser | null;
	private readonly json: Buffer[] = [];
	private size = 0;
	private usage: ReportedUsage | null = null;
	private readonly output: string[] = [];

	constructor(private readonly flavour: TurnFlavour, contentType: string) {
		this.parser = contentType.includes('text/event-stream') ? new SseParser() : null;
	}

	push(chunk: Buffer): void {
		this.size += chunk.length;
		if (this.size > readLimit) return;
		if (this.parser === null) this.json.push(chunk);
		else for (const event of this.parser.push(chunk)) this.streamed(event.data);
	}

	finish(): TurnReading {
		if (this.size > readLimit) return {usage: null, output: [], read: false};
		if (this.parser === null) this.answered(objectOf(jsonOrNull(Buffer.concat(this.json).toString('utf8'))));
		else for (const event of this.parser.end()) this.streamed(event.data);
		return {usage: this.usage, output: this.output, read: true};
	}

	/** One event of a stream: a chat chunk or a Responses event. */
	private streamed(data: string): void {
		if (data === '[DONE]') return;
		// Not JSON, or not an object: an event with nothing to count.
		const event = objectOf(jsonOrNull(data));
		if (this.flavour === 'chat') {
			this.usage = chatUsage(event.usage) ?? this.usage;
			for (const choice of arrayOf(event.choices)) collectText(objectOf(choice).delta, this.output);
			return;
		}
		const type = typeof event.type === 'string' ? event.type : '';
		if (type.endsWith('.delta') && typeof event.delta === 'string') this.output.push(event.delta);
		// completed, incomplete and failed all close the response with its usage.
		if (type.startsWith('response.')) this.usage = responsesUsage(objectOf(event.response).usage) ?? this.usage;
	}

	/** A whole JSON answer. */
	private answered(body: Record<string, unknown>): void {
		if (this.flavour === 'chat') {
			this.usage = chatUsage(body.usage);
			for (const choice of arrayOf(body.choices)) collectText(objectOf(choice).message, this.output);
		} else {
			this.usage = responsesUsage(body.usage);
			collectText(body.output, this.output);
		}
	}
}

function chatUsage(value: unknown): ReportedUsage | null {
	const parsed = ReportedUsage.safeParse(value);
	return parsed.success && parsed.data.prompt_tokens !== undefined ? parsed.data : null;
}

/** The Responses API's usage in the chat-completions terms the meter reads. */
function responsesUsage(value: unknown): ReportedUsage | null {
	const usage = objectOf(value);
	if (typeof usage.input_tokens !== 'number') return null;
	const cached = objectOf(usage.input_tokens_details).cached_tokens;
	const parsed = ReportedUsage.safeParse({
		prompt_tokens: usage.input_tokens,
		completion_tokens: usage.output_tokens,
		prompt_tokens_details: typeof cached === 'number' ? {cached_tokens: cached} : null,
	});
	return parsed.success ? parsed.data : null;
}

/** Fields that label a message or item rather than carry what the model read or wrote. */
const labels = new Set(['role', 'type', 'id', 'call_id', 'index', 'status', 'object', 'finish_reason']);

/** Every string under a value but its labels: the text, tool names and arguments a tokenizer estimate counts. */
export function collectText(value: unknown, into: string[]): void {
	if (typeof value === 'string') into.push(value);
	else if (Array.isArray(value)) for (const item of value) collectText(item, into);
	else if (typeof value === 'object' && value !== null) {
		for (const [key, item] of Object.entries(value)) if (!labels.has(key)) collectText(item, into);
	}
}

const objectOf = (value: unknown): Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
const arrayOf = (value: unknown): unknown[] => Array.isArray(value) ? value : [];
