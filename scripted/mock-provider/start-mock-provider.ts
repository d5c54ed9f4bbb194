import type {IncomingMessage} from 'node:http';
import {createRequire} from 'node:module';
import type {AddressInfo} from 'node:net';
import {json, type MockRequest, type ScenarioName, scenarios} from './scenarios.js';

// Required, not imported: importing node:http as a module reads each of its exports, and its WebSocket getters load undici (~25 ms of every start).
const {createServer} = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export interface MockProvider {
	/** The base URL for an OpenAI-compatible client, ending in /v1. */
	url: string;
	close(): Promise<void>;
}

const bodyLimit = 16 * 1024 * 1024;

/**
 * An OpenAI-compatible test endpoint on 127.0.0.1 (hlab mock-provider): `POST /v1/chat/completions` answers as the
 * scenario says, `GET /v1/models` names one model; for people testing how their own setup meets a provider's failures.
 */
export async function startMockProvider(options: {port: number; scenario: ScenarioName}): Promise<MockProvider> {
	let requests = 0;
	const server = createServer((incoming, response) => {
		if (incoming.method === 'GET' && incoming.url === '/v1/models') return json(response, 200, {object: 'list', data: [{id: 'mock', object: 'model', owned_by: 'hlab'}]});
		if (incoming.method !== 'POST' || incoming.url !== '/v1/chat/completions') return json(response, 404, {error: {message: `no such endpoint: ${incoming.method} ${incoming.url}`, type: 'invalid_request_error'}});
		void readBody(incoming).then(body => {
			if (body === 'too_large') return json(response, 413, {error: {message: 'request body too large', type: 'invalid_request_error'}});
			const request: MockRequest = {index: requests++, body};
			scenarios[options.scenario](request, response, incoming);
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		close: () => new Promise<void>(resolve => {
			server.close(() => resolve());
			server.closeAllConnections();
		}),
	};
}

async function readBody(incoming: IncomingMessage): Promise<MockRequest['body'] | 'too_large'> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of incoming) {
		size += (chunk as Buffer).length;
		if (size > bodyLimit) return 'too_large';
		chunks.push(chunk as Buffer);
	}
	try {
		const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
		return typeof body === 'object' && body !== null ? body as MockRequest['body'] : null;
	} catch {
		// A scenario answers a body that is not JSON as it answers any other.
		return null;
	}
}
