/** One server-sent event: its `event` field (null when it named none) and its data lines joined by newlines. */
export interface SseEvent {
	event: string | null;
	data: string;
}

/**
 * An incremental parser of a `text/event-stream` body (the WHATWG event-stream grammar): bytes go in as they arrive,
 * whole events come out as soon as their blank line has. A line or a character split across chunks waits for the next.
 */
export class SseParser {
	private readonly decoder = new TextDecoder();
	private pending = '';
	private event: string | null = null;
	private data: string[] = [];

	push(chunk: Uint8Array): SseEvent[] {
		return this.lines(this.decoder.decode(chunk, {stream: true}), false);
	}

	/** The stream ended: a last event without its blank line still counts. */
	end(): SseEvent[] {
		const events = this.lines(this.decoder.decode(), true);
		const last = this.dispatch();
		return last === null ? events : [...events, last];
	}

	private lines(text: string, final: boolean): SseEvent[] {
		const events: SseEvent[] = [];
		let rest = this.pending + text;
		for (let match = /\r\n|\n|\r/.exec(rest); match !== null; match = /\r\n|\n|\r/.exec(rest)) {
			// A lone CR at the end may be the first half of CRLF: wait for the next chunk.
			if (!final && match[0] === '\r' && match.index === rest.length - 1) break;
			const event = this.line(rest.slice(0, match.index));
			if (event !== null) events.push(event);
			rest = rest.slice(match.index + match[0].length);
		}
		this.pending = rest;
		if (final && rest !== '') {
			this.pending = '';
			const event = this.line(rest);
			if (event !== null) events.push(event);
		}
		return events;
	}

	private line(line: string): SseEvent | null {
		if (line === '') return this.dispatch();
		if (line.startsWith(':')) return null;
		const colon = line.indexOf(':');
		const field = colon === -1 ? line : line.slice(0, colon);
		const raw = colon === -1 ? '' : line.slice(colon + 1);
		const value = raw.startsWith(' ') ? raw.slice(1) : raw;
		if (field === 'data') this.data.push(value);
		else if (field === 'event') this.event = value;
		return null;
	}

	private dispatch(): SseEvent | null {
		const event = this.data.length === 0 ? null : {event: this.event, data: this.data.join('\n')};
		this.event = null;
		this.data = [];
		return event;
	}
}
