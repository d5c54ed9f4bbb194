import type {IncomingMessage, ServerResponse} from 'node:http';
import {twoTurnAnswer} from './two-turn-answer.js';

export const scenarioNames = ['constant', 'storm', 'reset', 'slow', 'garbage'] as const;
export type ScenarioName = typeof scenarioNames[number];

/** One chat request as a scenario sees it: its number since the provider started (from 0) and its parsed body (null when not JSON). */
export interface MockRequest {
	index: number;
	body: {model?: unknown; messages?: {role: string}[]} | null;
}

type Answer = (request: MockRequest, response: ServerResponse, incoming: IncomingMessage) => void;

/** Seconds a storm's 429 asks the client to wait. */
export const stormRetryAfterS = 1;
/** How long a slow body takes from its headers to its last byte. */
export const slowBodyMs = 2000;

/**
 * What each scenario answers a chat completion: every one of them a failure a client must survive, except
 * `constant`; each also answers well often enough (storm, reset) that a client that retries right finishes.
 */
export const scenarios: Record<ScenarioName, Answer> = {
	constant: (request, response) => json(response, 200, twoTurnAnswer(request.body ?? {})),
	// Three of every four requests refused, as a provider under load does, with the wait it advises.
	storm: (request, response) => {
		if (request.index % 4 === 3) json(response, 200, twoTurnAnswer(request.body ?? {}));
		else json(response, 429, {error: {message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded'}}, {'retry-after': String(stormRetryAfterS)});
	},
	// Every other request has its connection reset before any byte of the answer.
	reset: (request, response, incoming) => {
		if (request.index % 2 === 1) json(response, 200, twoTurnAnswer(request.body ?? {}));
		else incoming.socket.resetAndDestroy();
	},
	// The headers at once, then the body in ten pieces over two seconds.
	slow: (request, response) => {
		const text = JSON.stringify(twoTurnAnswer(request.body ?? {}));
		response.writeHead(200, {'content-type': 'application/json'});
		const pieces = 10;
		const size = Math.ceil(text.length / pieces);
		let sent = 0;
		const timer = setInterval(() => {
			if (response.destroyed) return clearInterval(timer);
			response.write(text.slice(sent * size, (sent + 1) * size));
			sent += 1;
			if (sent === pieces) {
				clearInterval(timer);
				response.end();
			}
		}, slowBodyMs / pieces);
	},
	// A 200 that says it is JSON and is not.
	garbage: (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end('{"id": "chatcmpl-garbage", "choices": [{"message": {"role": "assist\u0000\uFFFD');
	},
};

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	response.writeHead(status, {'content-type': 'application/json', ...headers});
	response.end(JSON.stringify(body));
}
