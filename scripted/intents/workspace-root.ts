import {textOf, type ChatRequest} from '../chat-request.js';

/*
 * The workspace root is not the provider's to know: agents name their working directory in the system prompt or an
 * environment context (opencode "Working directory: /x", pi "Current working directory: /x", Qwen Code "I'm currently
 * working in the directory: /x", Codex "<cwd>/x</cwd>"). The first one a system, developer or user message names wins
 * (never a tool result: that is workspace content); null when none does (then a tool that asks for absolute paths is not used).
 */
const patterns = [
	/<cwd>\s*(\/[^<\n]*?)\s*<\/cwd>/,
	// To the end of the line: a workspace path may hold spaces.
	/working in the directory:[ \t]*(\/[^\n]*)/i,
	/working directory(?: is)?[ \t]*[:=][ \t]*(\/[^\n<>"'`]*)/i,
	/\bcwd[ \t]*[:=][ \t]*(\/[^\n<>"'`]*)/i,
];

export function workspaceRoot(chat: ChatRequest): string | null {
	for (const message of chat.messages) {
		if (message.role === 'assistant' || message.role === 'tool') continue;
		const text = textOf(message.content);
		// The earliest mention in a message: an agent's environment block comes before the project's instructions it quotes.
		const match = patterns.map(pattern => pattern.exec(text)).filter(found => found !== null).sort((a, b) => a.index - b.index)[0];
		if (match) return match[1]!.trim().replace(/[.,;:]+$/, '').replace(/(.)\/+$/, '$1');
	}
	return null;
}
