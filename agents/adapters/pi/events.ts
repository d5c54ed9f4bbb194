import {jsonLines} from '../json-lines.js';

/*
 * pi's `--mode json` stdout: a `session` header, then its session events one a line. A finished message arrives
 * as `message_end` (user, assistant, toolResult); each run of the loop ends with `agent_end`; a failed request is
 * retried as `auto_retry_start` … `auto_retry_end`. See the package's docs/json.md.
 */

export interface PiContentBlock {
	type: string;
	text?: string;
	id?: string;
	name?: string;
	arguments?: unknown;
}

export interface PiMessage {
	role: 'user' | 'assistant' | 'toolResult' | string;
	content?: string | PiContentBlock[];
	toolCallId?: string;
	stopReason?: string;
	errorMessage?: string;
	usage?: Record<string, unknown>;
}

export interface PiEvents {
	/** The finished messages in the order they ended. */
	messages: PiMessage[];
	/** How many times the loop ended (`agent_end`); 0 when pi stopped before its loop did. */
	agentEnds: number;
	sawSession: boolean;
	/** The last `auto_retry_end` that gave up, with its error. */
	retriesExhausted: string | null;
}

export function piEvents(stdout: string): PiEvents {
	const events: PiEvents = {messages: [], agentEnds: 0, sawSession: false, retriesExhausted: null};
	for (const event of jsonLines(stdout)) {
		if (event.type === 'session') events.sawSession = true;
		else if (event.type === 'agent_end') events.agentEnds += 1;
		else if (event.type === 'message_end' && isMessage(event.message)) events.messages.push(event.message);
		else if (event.type === 'auto_retry_end') events.retriesExhausted = event.success === false ? String(event.finalError ?? 'the retries gave up') : null;
	}
	return events;
}

function isMessage(value: unknown): value is PiMessage {
	return typeof value === 'object' && value !== null && typeof (value as {role?: unknown}).role === 'string';
}
