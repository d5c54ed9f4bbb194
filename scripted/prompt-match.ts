import {textOf, type ChatRequest} from './chat-request.js';

/** The texts of the request's user messages, in order. */
function userTexts(chat: ChatRequest): string[] {
	return chat.messages.filter(message => message.role === 'user').map(message => textOf(message.content));
}

/**
 * What the conversation is about, by its prompt: the one the first user message is exactly, else the longest one a user
 * message contains. Agents wrap the task (a prefix, an environment context as the first user message, a template).
 */
export function matchPrompt<T extends {prompt: string}>(chat: ChatRequest, candidates: readonly T[]): T | undefined {
	const texts = userTexts(chat);
	const exact = candidates.find(candidate => candidate.prompt === texts[0]);
	if (exact) return exact;
	return [...candidates].sort((a, b) => b.prompt.length - a.prompt.length).find(candidate => texts.some(text => text.includes(candidate.prompt)));
}
