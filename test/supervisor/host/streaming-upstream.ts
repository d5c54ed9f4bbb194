import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';

export const streamedUsage = {prompt_tokens: 12, completion_tokens: 5, total_tokens: 17};
export const responsesUsage = {input_tokens: 20, output_tokens: 6, total_tokens: 26, input_tokens_details: {cached_tokens: 2}, output_tokens_details: {reasoning_tokens: 0}};
export const streamedText = ['Hel', 'lo', ' world'];

export interface StreamingUpstream {
	/** The provider's base URL, `/v1` included. */
	url: string;
	/** Requests that reached it, by path (query included). */
	requests: string[];
	/** performance.now() of the last chunk of the last stream it wrote. */
	lastSentMs(): number;
	close(): Promise<void>;
}

/**
 * A real loopback provider that streams like OpenAI's: chat chunks or Responses events, `delay` ms apart, with the
 * usage chunk (chat: `choices: []`; Responses: in `response.completed`) unless `usage=0`. Query: `?delay=&usage=`.
 */
export async function startStreamingUpstream(): Promise<StreamingUpstream> {
	const requests: string[] = [];
	let lastSent = 0;
	const server: Server = createServer({noDelay: true}, (request, response) => {
		requests.push(request.url ?? '');
		const url = new URL(request.url ?? '/', 'http://stub');
		const delay = Number(url.searchParams.get('delay') ?? '0');
		const withUsage = url.searchParams.get('usage') !== '0';
		request.resume();
		request.on('end', () => {
			const events = url.pathname.endsWith('/responses') ? responsesEvents(withUsage) : chatEvents(withUsage);
			response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'});
			void writeSpaced(response, events, delay).then(() => {
				lastSent = performance.now();
				response.end();
			});
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', () => resolve()));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		requests,
		lastSentMs: () => lastSent,
		close: () => new Promise<void>(resolve => {
			server.closeAllConnections();
			server.close(() => resolve());
		}),
	};
}

async function writeSpaced(response: NodeJS.WritableStream, events: string[], delay: number): Promise<void> {
	for (const [index, event] of events.entries()) {
		if (index > 0 && delay > 0) await new Promise(resolve => setTimeout(resolve, delay));
		response.write(event);
	}
}

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

function chatEvents(withUsage: boolean): string[] {
	const chunk = (delta: object, finish: string | null = null) => data({id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{index: 0, delta, finish_reason: finish}]});
	return [
		chunk({role: 'assistant', content: ''}),
		...streamedText.map(text => chunk({content: text})),
		chunk({}, 'stop'),
		...(withUsage ? [data({id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [], usage: streamedUsage})] : []),
		'data: [DONE]\n\n',
	];
}

function responsesEvents(withUsage: boolean): string[] {
	const event = (type: string, value: object) => `event: ${type}\ndata: ${JSON.stringify({type, ...value})}\n\n`;
	const response = {id: 'r1', object: 'response', model: 'm', status: 'completed', output: [{type: 'message', role: 'assistant', content: [{type: 'output_text', text: streamedText.join('')}]}]};
	return [
		event('response.created', {response: {...response, status: 'in_progress', output: []}}),
		...streamedText.map(delta => event('response.output_text.delta', {item_id: 'm1', output_index: 0, content_index: 0, delta})),
		event('response.completed', {response: withUsage ? {...response, usage: responsesUsage} : response}),
	];
}
