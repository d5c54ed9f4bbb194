import {mkdir, writeFile} from 'node:fs/promises';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {oneTurnAnswer, oneTurnRequest} from './config.js';
import {setAside} from './set-aside.js';

export interface Stub {
	/** The OpenAI-compatible base URL (ending in /v1). */
	url: string;
	close(): Promise<void>;
}

/** The one answer the stub gives: a `done` tool call with the task's answer, serialised once. */
const answer = JSON.stringify({
	id: 'chatcmpl-bench', object: 'chat.completion', created: 0, model: 'stub',
	choices: [{index: 0, finish_reason: 'tool_calls', message: {role: 'assistant', content: null, tool_calls: [{id: 'call_done', type: 'function', function: {name: 'done', arguments: JSON.stringify({summary: oneTurnAnswer})}}]}}],
	usage: {prompt_tokens: 100, completion_tokens: 10, total_tokens: 110},
});

/** A plain OpenAI-compatible endpoint on loopback: every request is read to its end and answered at once with the same bytes; no tokenizer, no parsing. */
export async function startStub(): Promise<Stub> {
	const server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(answer)});
			response.end(answer);
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => closeServer(server)};
}

function closeServer(server: Server): Promise<void> {
	return new Promise(resolve => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

/**
 * The raw HTTP floor: `count` chat requests (the engine's request body) from `level` asynchronous loops in one thread of
 * the bench process, each answer read to its end; with `files`, each answer is also written to a file of its own.
 */
export async function httpFloor(dir: string, url: string, count: number, level: number, files: boolean): Promise<number> {
	const out = join(dir, `http-floor-${Math.random().toString(36).slice(2)}`);
	if (files) await mkdir(out);
	const body = JSON.stringify(oneTurnRequest);
	const started = performance.now();
	let next = 0;
	const lane = async (): Promise<void> => {
		while (next < count) {
			const index = next++;
			const response = await fetch(`${url}/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json'}, body});
			const text = await response.text();
			if (!response.ok) throw new Error(`the floor's request failed with ${response.status}: ${text}`);
			if (files) await writeFile(join(out, `${index}.json`), text);
		}
	};
	await Promise.all(Array.from({length: level}, lane));
	const ms = performance.now() - started;
	if (files) await setAside(dir, out);
	return ms;
}
