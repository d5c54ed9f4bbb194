import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {Test} from 'tap';

type AnyValue = {stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean};
type KeyValue = {key: string; value: AnyValue};

export interface ReceivedSpan {
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	name: string;
	kind: number;
	startTimeUnixNano: string;
	endTimeUnixNano: string;
	attributes: Record<string, string | number | boolean>;
	events: Array<{name: string; attributes: Record<string, string | number | boolean>}>;
	status: {code?: number; message?: string};
	scope: {name: string; version?: string};
	schemaUrl: string | undefined;
	resource: Record<string, string | number | boolean>;
}

/** A collector on loopback that takes OTLP/HTTP in its JSON encoding, as the exporter sends it, and keeps every span. */
export async function startReceiver(t: Test): Promise<{url: string; spans: ReceivedSpan[]; requests: string[]}> {
	const spans: ReceivedSpan[] = [];
	const requests: string[] = [];
	const server = createServer((request, response) => {
		let body = '';
		request.setEncoding('utf8');
		request.on('data', chunk => body += chunk);
		request.on('end', () => {
			requests.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
			spans.push(...decode(JSON.parse(body)));
			response.writeHead(200, {'content-type': 'application/json'});
			response.end('{}');
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())));
	return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, requests};
}

/** A loopback port where nothing listens. */
export async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	await new Promise<void>(resolve => server.close(() => resolve()));
	return port;
}

interface ExportRequest {
	resourceSpans: Array<{resource: {attributes: KeyValue[]}; scopeSpans: Array<{scope: {name: string; version?: string}; schemaUrl?: string; spans: Array<Omit<ReceivedSpan, 'attributes' | 'events' | 'scope' | 'schemaUrl' | 'resource'> & {attributes: KeyValue[]; events: Array<{name: string; attributes: KeyValue[]}>}>}>}>;
}

function decode(request: ExportRequest): ReceivedSpan[] {
	return request.resourceSpans.flatMap(resourceSpans => resourceSpans.scopeSpans.flatMap(scopeSpans => scopeSpans.spans.map(span => ({
		...span,
		attributes: attributesOf(span.attributes),
		events: span.events.map(event => ({name: event.name, attributes: attributesOf(event.attributes)})),
		scope: scopeSpans.scope,
		schemaUrl: scopeSpans.schemaUrl,
		resource: attributesOf(resourceSpans.resource.attributes),
	}))));
}

function attributesOf(list: KeyValue[]): Record<string, string | number | boolean> {
	return Object.fromEntries(list.map(({key, value}) => [key, value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.doubleValue ?? value.boolValue!]));
}
