import type {ChatMessage, TranscriptEntry} from '../../sdk/plugin.js';
import {deepFreeze} from '../deep-freeze.js';
import type {JsonlLog} from './jsonl-log.js';

type NewEntry = Omit<TranscriptEntry, 'index'>;

/** The conversation: every record is appended to messages.jsonl as it is admitted. */
export class Transcript {
	private readonly entries: TranscriptEntry[] = [];

	constructor(private readonly log: JsonlLog) {}

	touch(): void {
		this.log.touch();
	}

	add(entry: NewEntry): TranscriptEntry {
		const record = deepFreeze(structuredClone({index: this.entries.length, ...entry}));
		this.entries.push(record);
		this.log.append('message', {message: record});
		return record;
	}

	/** An immutable view: the records are frozen, and so is the array. */
	view(): readonly TranscriptEntry[] {
		return Object.freeze([...this.entries]);
	}

	/** The chat-completions messages for the next request (records a plugin caused are not sent). */
	toMessages(): ChatMessage[] {
		return this.entries.filter(entry => entry.provenance === undefined).map(entry => {
			if (entry.role === 'assistant' && entry.tool_calls && entry.tool_calls.length > 0) {
				return {
					role: 'assistant',
					content: entry.content,
					tool_calls: entry.tool_calls.map(call => ({id: call.id, type: 'function' as const, function: {name: call.name, arguments: call.arguments}})),
				};
			}
			if (entry.role === 'tool') return {role: 'tool', content: entry.content, tool_call_id: entry.tool_call_id};
			return {role: entry.role, content: entry.content};
		});
	}
}
