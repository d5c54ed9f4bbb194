import {randomBytes} from 'node:crypto';
import {encode} from './tokenizer.js';
import {textOf, type ChatRequest} from './chat-request.js';

const conversationLimit = 4096;
const memoLimit = 4096;

/** How a request's prompt is laid out as text before it is tokenized: tools first, then every message in order. */
export function promptParts(request: ChatRequest): string[] {
	const parts = [`tools: ${JSON.stringify(request.tools ?? [])}\n`];
	for (const message of request.messages) {
		let part = `<${message.role}>\n${textOf(message.content)}\n`;
		if (message.role === 'assistant' && message.tool_calls) part += `${JSON.stringify(message.tool_calls)}\n`;
		if (message.role === 'tool') part += `(answers ${message.tool_call_id})\n`;
		parts.push(part);
	}
	return parts;
}

/** The conversation a request continues, read from the ids the server gave its tool calls (`call_<conversation>_<n>`). */
export function conversationOf(request: ChatRequest): string | null {
	for (const message of request.messages) {
		// An assistant text before any call (Qwen Code's "Got it." to its environment context) names no conversation.
		if (message.role !== 'assistant' || !message.tool_calls?.length) continue;
		const id = message.tool_calls[0]!.id;
		const match = /^call_([0-9a-f]{16})_\d+$/.exec(id);
		return match ? match[1]! : null;
	}
	return null;
}

export function newConversationId(): string {
	return randomBytes(8).toString('hex');
}

/**
 * A simulated prompt cache: each conversation keeps its previous request's tokens; the prefix a new request shares
 * with it is reported as cached (read), the rest as written to the cache for the next request.
 */
export class PromptCache {
	private readonly previous = new Map<string, number[]>();
	/** Tokens of recently seen prompt parts: a conversation resends its history on every request. */
	private readonly memo = new Map<string, number[]>();

	/** Tokenizes the prompt and accounts it against the conversation's previous request. */
	account(conversation: string, parts: string[]): {promptTokens: number; cachedTokens: number; writtenTokens: number} {
		const tokens: number[] = [];
		for (const part of parts) for (const token of this.encodePart(part)) tokens.push(token);
		const before = this.previous.get(conversation);
		let shared = 0;
		if (before) while (shared < before.length && shared < tokens.length && before[shared] === tokens[shared]) shared += 1;
		remember(this.previous, conversation, tokens, conversationLimit);
		return {promptTokens: tokens.length, cachedTokens: shared, writtenTokens: tokens.length - shared};
	}

	private encodePart(part: string): number[] {
		const known = this.memo.get(part);
		if (known) return known;
		const tokens = encode(part);
		remember(this.memo, part, tokens, memoLimit);
		return tokens;
	}
}

/** Sets a key as the newest entry of a bounded map, dropping the oldest past the limit. */
function remember<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
	map.delete(key);
	map.set(key, value);
	if (map.size > limit) map.delete(map.keys().next().value!);
}
