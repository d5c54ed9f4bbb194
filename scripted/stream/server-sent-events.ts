import {randomBytes} from 'node:crypto';
import type {ServerResponse} from 'node:http';

/** One server-sent event: its data is JSON (or a bare marker such as `[DONE]`); the Responses API names each event. */
export interface ServerSentEvent {
	event?: string;
	data: object | string;
}

/** Writes a whole stream of events and ends the response: a scripted answer is known before its first byte. */
export function sendEvents(response: ServerResponse, events: readonly ServerSentEvent[]): void {
	response.writeHead(200, {'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': `req_${randomBytes(8).toString('hex')}`});
	for (const {event, data} of events) {
		response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
	}
	response.end();
}
