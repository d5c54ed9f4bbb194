import type {IncomingHttpHeaders, IncomingMessage, ServerResponse} from 'node:http';
import {createRequire} from 'node:module';
import type {AddressInfo} from 'node:net';
import type {Usage} from '../../engine/outcome.js';
import type {ResolvedProvider} from '../../engine/provider-config.js';
import {UsageMeter} from '../../engine/loop/usage-meter.js';
import {estimateUsage} from './token-estimate.js';
import {checkRequest, turnFlavour, type ProxyError, type TurnFlavour} from './turn-request.js';
import {TurnResponse} from './turn-response.js';
import type {ProxyRefusals} from './host-records.js';

// Required, not imported: importing node:http as a module reads each of its exports, and its WebSocket getters load undici (~25 ms of every start).
const require = createRequire(import.meta.url);
const {createServer, request: httpRequest} = require('node:http') as typeof import('node:http');

/** A request body bigger than this is refused: no agent's conversation is this big, and the proxy holds it to check it. */
const requestLimit = 64 * 1024 * 1024;
/** The distinct models a refusal record names, at most: a flood of names stays a count. */
const namedModels = 20;

/** Headers that describe one hop, never forwarded; the key and the encoding are the proxy's to set. */
const hopHeaders = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'authorization', 'accept-encoding', 'content-length']);

export interface MeteringProxy {
	/** The provider as the host sees it: this proxy's loopback URL, and no key variable. */
	provider: ResolvedProvider;
	/** Turns and tokens counted from the provider's own responses so far (estimates once close() has settled them). */
	usage(): Usage;
	/** Requests forwarded, answered or not. */
	requests(): number;
	/** Requests the proxy answered itself instead of forwarding: another model, or no conversation to send. */
	refusals(): ProxyRefusals;
	/** The last model request's answer (chat or responses), refused here or answered upstream; null before any. */
	lastExchange(): LastExchange | null;
	/** Stops serving and waits for the estimates still being counted. */
	close(): Promise<void>;
}

/** How one model request ended at the provider boundary: an agent that exits 0 after an error here did not finish. */
export interface LastExchange {
	status: number;
	/** The proxy answered it itself (another model, a malformed request) instead of forwarding it. */
	refused: boolean;
	/** The start of the error body (an OpenAI-style message) when the status is an error. */
	message: string | null;
}

/** The most of an error body a last exchange keeps. */
const errorExcerpt = 2048;

/** What one proxy has counted, shared by its requests. */
interface Counts {
	meter: UsageMeter;
	last: LastExchange | null;
	forwarded: number;
	estimated: number;
	pending: Set<Promise<void>>;
	refusals: ProxyRefusals;
}

/**
 * A loopback HTTP proxy in front of one provider for one host task. It checks each request (the plan's model only),
 * forwards it to the provider's base URL with the supervisor's key, relays the response chunk by chunk as it arrives,
 * and counts a turn for each successful chat completion or response with the usage it reports (JSON or an event
 * stream read as it passes), or its own tokenizer estimate, marked so, when it reports none. A request whose response
 * did not arrive whole makes the token counts unknown, as the engine's own meter does.
 */
export async function startMeteringProxy(upstream: ResolvedProvider, apiKey: string | null): Promise<MeteringProxy> {
	const counts: Counts = {meter: new UsageMeter(), last: null, forwarded: 0, estimated: 0, pending: new Set(), refusals: {count: 0, models: [], malformed: 0}};
	// Events go out as they come: never wait to fill a packet.
	const server = createServer({noDelay: true}, (incoming, outgoing) => {
		handle(upstream, apiKey, incoming, outgoing, counts);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const {port} = server.address() as AddressInfo;
	return {
		provider: {...upstream, base_url: `http://127.0.0.1:${port}`, api_key_env: null},
		usage: () => ({...counts.meter.snapshot(), token_source: counts.estimated > 0 ? 'estimated' : 'provider'}),
		requests: () => counts.forwarded,
		refusals: () => structuredClone(counts.refusals),
		lastExchange: () => (counts.last === null ? null : {...counts.last}),
		close: async () => {
			await new Promise<void>(resolve => {
				server.closeAllConnections();
				server.close(() => resolve());
			});
			await Promise.all(counts.pending);
		},
	};
}

/** One request: read its body, refuse it or forward it. */
function handle(upstream: ResolvedProvider, apiKey: string | null, incoming: IncomingMessage, outgoing: ServerResponse, counts: Counts): void {
	const target = new URL(`${upstream.base_url.replace(/\/+$/, '')}${incoming.url ?? '/'}`);
	const flavour = turnFlavour(incoming.method, target.pathname);
	readBody(incoming).then(body => {
		if (body === null) return refuse(outgoing, {status: 413, body: {error: {message: `the request body is over ${requestLimit} bytes`, type: 'invalid_request_error', param: null, code: 'request_too_large'}}}, flavour, counts);
		const checked = checkRequest(flavour, body, upstream.model);
		if (!checked.ok) {
			record(counts.refusals, checked.refusal, checked.model);
			return refuse(outgoing, checked.refusal, flavour, counts);
		}
		counts.forwarded += 1;
		forward({target, apiKey, incoming, outgoing, counts, flavour, request: checked.json, body});
	}, () => outgoing.destroy());
}

function readBody(incoming: IncomingMessage): Promise<Buffer | null> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		incoming.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= requestLimit) chunks.push(chunk);
		});
		incoming.on('end', () => resolve(size > requestLimit ? null : Buffer.concat(chunks)));
		incoming.on('error', reject);
	});
}

function refuse(outgoing: ServerResponse, refusal: ProxyError, flavour: TurnFlavour | null, counts: Counts): void {
	if (flavour !== null) counts.last = {status: refusal.status, refused: true, message: refusal.body.error.message};
	outgoing.writeHead(refusal.status, {'content-type': 'application/json'});
	outgoing.end(JSON.stringify(refusal.body));
}

function record(refusals: ProxyRefusals, refusal: ProxyError, model: string | null): void {
	if (refusal.body.error.code !== 'model_not_allowed') {
		refusals.malformed += 1;
		return;
	}
	refusals.count += 1;
	if (!refusals.models.includes(model) && refusals.models.length < namedModels) refusals.models.push(model);
}

interface Forwarded {
	target: URL;
	apiKey: string | null;
	incoming: IncomingMessage;
	outgoing: ServerResponse;
	counts: Counts;
	flavour: TurnFlavour | null;
	request: Record<string, unknown> | null;
	body: Buffer;
}

function forward({target, apiKey, incoming, outgoing, counts, flavour, request: json, body}: Forwarded): void {
	// node:https only for an https upstream: it brings TLS, ~12 CPU-ms of every start that loads the proxy (bench/README.md).
	const send = target.protocol === 'https:' ? (require('node:https') as typeof import('node:https')).request : httpRequest;
	const headers = {...headersFor(incoming.headers, apiKey), 'content-length': String(body.length)};
	const request = send(target, {method: incoming.method, headers}, response => {
		outgoing.writeHead(response.statusCode ?? 502, response.headers);
		outgoing.flushHeaders();
		const status = response.statusCode ?? 502;
		const answered = flavour !== null && status < 300;
		const reading = answered ? new TurnResponse(flavour, String(response.headers['content-type'] ?? '')) : null;
		const exchange: LastExchange | null = flavour === null ? null : {status, refused: false, message: null};
		if (exchange !== null) counts.last = exchange;
		let excerpt = '';
		response.on('data', (chunk: Buffer) => {
			// Relayed first, read after: the agent never waits on the meter.
			outgoing.write(chunk);
			reading?.push(chunk);
			if (exchange !== null && status >= 400 && excerpt.length < errorExcerpt) excerpt += chunk.toString('utf8').slice(0, errorExcerpt - excerpt.length);
		});
		response.on('end', () => {
			outgoing.end();
			if (exchange !== null && status >= 400) exchange.message = excerpt;
			if (reading !== null) countTurn(counts, json, reading);
		});
		response.on('error', () => {
			if (exchange !== null) Object.assign(exchange, {status: 502, message: 'the provider\'s answer broke off before its end'});
			if (flavour !== null) counts.meter.addUnreported();
			outgoing.destroy();
		});
	});
	request.on('error', error => {
		// Nothing reached the provider, or its answer was lost: either way nobody knows what it spent.
		if (flavour !== null) {
			counts.meter.addUnreported();
			counts.last = {status: 502, refused: false, message: `the metering proxy could not reach the provider: ${error.message}`};
		}
		if (!outgoing.headersSent) outgoing.writeHead(502, {'content-type': 'application/json'});
		outgoing.end(JSON.stringify({error: {message: `the metering proxy could not reach the provider: ${error.message}`}}));
	});
	// A host that goes away mid-request (ended at its deadline) leaves no request running behind it.
	outgoing.on('close', () => {
		if (!outgoing.writableFinished) request.destroy();
	});
	request.end(body);
}

/** One answered turn: the provider's usage when it reported one, else the proxy's own estimate (counted in the background). */
function countTurn(counts: Counts, request: Record<string, unknown> | null, response: TurnResponse): void {
	const reading = response.finish();
	if (!reading.read) return counts.meter.addUnreported();
	if (reading.usage !== null) return counts.meter.addTurn(reading.usage);
	counts.estimated += 1;
	const estimate = estimateUsage(request, reading.output)
		.then(usage => counts.meter.addTurn(usage), () => {
			counts.meter.addTurn(null);
		})
		.finally(() => counts.pending.delete(estimate));
	counts.pending.add(estimate);
}

/** The caller's headers minus this hop's, plus the supervisor's key; no compression, so the usage can be read. */
function headersFor(headers: IncomingHttpHeaders, apiKey: string | null): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined && !hopHeaders.has(name)) out[name] = value;
	}
	if (apiKey !== null) out.authorization = `Bearer ${apiKey}`;
	return out;
}
