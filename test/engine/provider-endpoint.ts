import {createServer, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import type {Test} from 'tap';
import {runAgent, type ExecutionOutcome, type ProviderLimiterShare} from '../../engine/index.js';
import {readJsonl, tempDir} from './engine-run.js';
import {twoTurnAnswer} from '../../scripted/index.js';

/** One request as the endpoint saw it: when it arrived (ms since the endpoint started), its body and its Authorization header. */
export interface Arrival {
	index: number;
	at: number;
	body: any;
	authorization: string | null;
}

export interface Endpoint {
	url: string;
	arrivals: Arrival[];
}

/** Decides the answer to one request. */
export type Reply = (arrival: Arrival, response: ServerResponse) => void;

/** A real HTTP server on loopback standing in for an OpenAI-compatible provider, closed when the test ends. */
export async function startEndpoint(t: Test, reply: Reply): Promise<Endpoint> {
	const startedAt = performance.now();
	const arrivals: Arrival[] = [];
	const server = createServer((request, response) => {
		const at = performance.now() - startedAt;
		const chunks: Buffer[] = [];
		request.on('data', chunk => chunks.push(chunk as Buffer));
		request.on('end', () => {
			const arrival = {index: arrivals.length, at, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), authorization: request.headers.authorization ?? null};
			arrivals.push(arrival);
			reply(arrival, response);
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	t.teardown(() => new Promise<void>(resolve => {
		server.close(() => resolve());
		server.closeAllConnections();
	}));
	return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, arrivals};
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	response.writeHead(status, {'content-type': 'application/json', ...headers});
	response.end(JSON.stringify(body));
}

// The product's mock provider answers the same way (hlab mock-provider --scenario constant).
export {twoTurnAnswer};

export function answerTwoTurns(response: ServerResponse, body: any): void {
	json(response, 200, twoTurnAnswer(body));
}

/** The largest number of arrivals within any window of `windowMs`. */
export function busiestWindow(arrivals: Arrival[], windowMs: number): number {
	const times = arrivals.map(arrival => arrival.at).sort((a, b) => a - b);
	let most = 0;
	for (let first = 0, last = 0; last < times.length; last += 1) {
		while (times[last]! - times[first]! > windowMs) first += 1;
		most = Math.max(most, last - first + 1);
	}
	return most;
}

/** A provider under a 429 storm: for `stormMs` after the first request it refuses everything with `Retry-After`, then answers. */
export function stormReply(options: {stormMs: number; retryAfterS: number}): {reply: Reply; refusals: number[]} {
	const refusals: number[] = [];
	let stormFrom: number | null = null;
	const reply: Reply = (arrival, response) => {
		stormFrom ??= arrival.at;
		if (arrival.at - stormFrom < options.stormMs) {
			refusals.push(arrival.at);
			json(response, 429, {error: {message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded'}}, {'retry-after': String(options.retryAfterS)});
			return;
		}
		answerTwoTurns(response, arrival.body);
	};
	return {reply, refusals};
}

/**
 * The requests any task started while a Retry-After that some task had heard still ran, from their journals: a
 * task records a refusal, then pauses the shared limiter, so no request of any task may start until the advice ends.
 * (The server cannot judge this itself: a request let through just before the refusal was heard may arrive after it.)
 */
export function requestsDuringAdvice(journals: Record<string, any>[][], adviceMs: number): string[] {
	const records = journals.flat();
	const heard = records.filter(record => record.type === 'request_error' && record.status === 429).map(record => Date.parse(record.at));
	return records
		.filter(record => record.type === 'request')
		.filter(record => heard.some(at => Date.parse(record.at) > at + 2 && Date.parse(record.at) < at + adviceMs - 2))
		.map(record => `${record.at} step ${record.step_index} attempt ${record.attempt}`);
}

/** Runs one task in this thread against `url` (an endpoint that needs no key), in a fresh temporary workspace. */
export async function runTask(t: Test, url: string, options: {limiter?: ProviderLimiterShare; deadlineMs?: number; id?: string} = {}): Promise<ExecutionOutcome> {
	return (await runTaskRecorded(t, url, options)).outcome;
}

/** `runTask`, with the journal the task wrote. */
export async function runTaskRecorded(t: Test, url: string, options: {limiter?: ProviderLimiterShare; deadlineMs?: number; id?: string} = {}): Promise<{outcome: ExecutionOutcome; journal: Record<string, any>[]}> {
	const dir = await tempDir(t);
	const outcome = await runAgent({
		task: {id: options.id ?? 'provider-task', prompt: 'Finish the task.'},
		workspace: dir,
		stateDir: join(dir, 'state'),
		provider: {base_url: url, model: 'test-model', api_key_env: null},
		maxSteps: 5,
		deadlineMs: options.deadlineMs ?? 20_000,
		plugins: [],
		limiter: options.limiter,
	});
	return {outcome, journal: await readJsonl(join(dir, 'state', 'journal.jsonl'))};
}
