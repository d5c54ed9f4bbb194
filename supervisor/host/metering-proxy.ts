import {createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse} from 'node:http';
import {request as httpsRequest} from 'node:https';
import type {AddressInfo} from 'node:net';
import type {Usage} from '../../engine/outcome.js';
import type {ResolvedProvider} from '../../engine/provider-config.js';
import {ReportedUsage, UsageMeter} from '../../engine/loop/usage-meter.js';

/** A response body bigger than this is still forwarded whole, but not read for usage (its usage becomes unknown). */
const meteredBodyLimit = 32 * 1024 * 1024;

/** Headers that describe one hop, never forwarded; the key and the encoding are the proxy's to set. */
const hopHeaders = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'authorization', 'accept-encoding']);

export interface MeteringProxy {
	/** The provider as the host sees it: this proxy's loopback URL, and no key variable. */
	provider: ResolvedProvider;
	/** Turns and tokens counted from the provider's own responses so far. */
	usage(): Usage;
	/** Requests forwarded, answered or not. */
	requests(): number;
	close(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of one provider for one host task. It forwards every request to the provider's
 * base URL with the supervisor's key, streams the response back byte for byte, and counts a turn for each
 * successful chat completion with the usage that response reports (JSON or an event stream). A request whose
 * response did not arrive whole makes the token counts unknown, as the engine's own meter does.
 */
export async function startMeteringProxy(upstream: ResolvedProvider, apiKey: string | null): Promise<MeteringProxy> {
	const meter = new UsageMeter();
	let forwarded = 0;
	const server = createServer((incoming, outgoing) => {
		forwarded += 1;
		forward(upstream, apiKey, incoming, outgoing, meter);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const {port} = server.address() as AddressInfo;
	return {
		provider: {...upstream, base_url: `http://127.0.0.1:${port}`, api_key_env: null},
		usage: () => meter.snapshot(),
		requests: () => forwarded,
		close: () => new Promise(resolve => {
			server.closeAllConnections();
			server.close(() => resolve());
		}),
	};
}

function forward(upstream: ResolvedProvider, apiKey: string | null, incoming: IncomingMessage, outgoing: ServerResponse, meter: UsageMeter): void {
	const target = new URL(`${upstream.base_url.replace(/\/+$/, '')}${incoming.url ?? '/'}`);
	const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
	const isTurn = incoming.method === 'POST' && target.pathname.endsWith('/chat/completions');
	const request = send(target, {method: incoming.method, headers: headersFor(incoming.headers, apiKey)}, response => {
		outgoing.writeHead(response.statusCode ?? 502, response.headers);
		const chunks: Buffer[] = [];
		let size = 0;
		response.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= meteredBodyLimit) chunks.push(chunk);
			outgoing.write(chunk);
		});
		response.on('end', () => {
			outgoing.end();
			if (!isTurn || (response.statusCode ?? 0) >= 300) return;
			if (size > meteredBodyLimit) meter.addUnreported();
			else countTurn(meter, Buffer.concat(chunks).toString('utf8'), String(response.headers['content-type'] ?? ''));
		});
		response.on('error', () => {
			if (isTurn) meter.addUnreported();
			outgoing.destroy();
		});
	});
	request.on('error', error => {
		// Nothing reached the provider, or its answer was lost: either way nobody knows what it spent.
		if (isTurn) meter.addUnreported();
		if (!outgoing.headersSent) outgoing.writeHead(502, {'content-type': 'application/json'});
		outgoing.end(JSON.stringify({error: {message: `the metering proxy could not reach the provider: ${error.message}`}}));
	});
	// A host that goes away mid-request (ended at its deadline) leaves no request running behind it.
	outgoing.on('close', () => {
		if (!outgoing.writableFinished) request.destroy();
	});
	incoming.pipe(request);
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

/** One answered chat completion: its `usage`, from the JSON body or from the last event of a stream that carried one. */
function countTurn(meter: UsageMeter, body: string, contentType: string): void {
	const usage = contentType.includes('text/event-stream') ? streamUsage(body) : jsonUsage(body);
	meter.addTurn(usage);
}

function jsonUsage(body: string): ReportedUsage | null {
	try {
		return parseUsage((JSON.parse(body) as {usage?: unknown}).usage);
	} catch {
		return null;
	}
}

function streamUsage(body: string): ReportedUsage | null {
	let usage: ReportedUsage | null = null;
	for (const line of body.split('\n')) {
		const data = line.startsWith('data:') ? line.slice(5).trim() : '';
		if (data === '' || data === '[DONE]') continue;
		try {
			usage = parseUsage((JSON.parse(data) as {usage?: unknown}).usage) ?? usage;
		} catch {
			// A line that is not JSON carries no usage.
		}
	}
	return usage;
}

function parseUsage(value: unknown): ReportedUsage | null {
	const parsed = ReportedUsage.safeParse(value);
	return parsed.success ? parsed.data : null;
}
