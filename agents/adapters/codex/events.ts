import {jsonLines} from '../json-lines.js';

/*
 * `codex exec --json` stdout: `thread.started`, then per user turn `turn.started`, its items (`item.started` /
 * `item.completed`: agent_message, reasoning, command_execution, file_change, mcp_tool_call, error notes) and
 * `turn.completed` with the turn's usage summed over its requests, or `turn.failed` with the request's error.
 */

export type CodexItem = Record<string, unknown> & {id: string; type: string};

export interface CodexEvents {
	sawThread: boolean;
	/** Completed items, in order. */
	items: CodexItem[];
	usages: Record<string, unknown>[];
	/** The last turn's end: completed, or failed with its error. */
	end: {kind: 'completed'} | {kind: 'failed'; message: string} | null;
}

export function codexEvents(stdout: string): CodexEvents {
	const events: CodexEvents = {sawThread: false, items: [], usages: [], end: null};
	for (const event of jsonLines(stdout)) {
		if (event.type === 'thread.started') events.sawThread = true;
		else if (event.type === 'item.completed' && isItem(event.item)) events.items.push(event.item);
		else if (event.type === 'turn.completed') {
			events.end = {kind: 'completed'};
			if (isRecord(event.usage)) events.usages.push(event.usage);
		} else if (event.type === 'turn.failed') events.end = {kind: 'failed', message: errorText(event.error)};
	}
	return events;
}

/** Codex passes the provider's error body through as text: its own message when it is an API error, else the text. */
function errorText(error: unknown): string {
	const text = isRecord(error) && typeof error.message === 'string' ? error.message : String(error);
	try {
		const body: unknown = JSON.parse(text);
		if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
	} catch {
		// Not a JSON body: Codex's own words.
	}
	return text;
}

function isItem(value: unknown): value is CodexItem {
	return isRecord(value) && typeof value.id === 'string' && typeof value.type === 'string';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
