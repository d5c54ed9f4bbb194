import {randomBytes} from 'node:crypto';
import type {IncomingMessage, ServerResponse} from 'node:http';
import {createRequire} from 'node:module';
import type {AddressInfo} from 'node:net';
import {builtinTasks} from '../tasks/index.js';
import {ApiError} from './api-error.js';
import {chatCompletion} from './chat-completion.js';
import {parseChatRequest, type ChatRequest} from './chat-request.js';
import {PromptCache} from './prompt-cache.js';
import {outputItems, responseId, responseObject} from './responses-object.js';
import {chatRequestOf, parseResponsesRequest, type ResponsesRequest} from './responses-request.js';
import {replyTo, type Repertoire} from './scripted-reply.js';
import type {ScriptedTask} from './scripted-task.js';
import type {ScriptedConversation} from './response-script.js';
import {chatStream} from './stream/chat-stream.js';
import {sendEvents} from './stream/server-sent-events.js';
import {responsesStream} from './stream/responses-stream.js';
import {loadTokenizer} from './tokenizer.js';

// Required, not imported: importing node:http as a module reads each of its exports, and its WebSocket getters load undici (~25 ms of every start).
const {createServer} = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export type {ScriptedTask} from './scripted-task.js';


export interface ScriptedServer {
	/** The base URL for an OpenAI-compatible client, ending in /v1. */
	url: string;
	close(): Promise<void>;
}

const bodyLimit = 16 * 1024 * 1024;

/**
 * Starts the scripted provider on 127.0.0.1 (a free port): chat-completions and Responses endpoints (streamed or not) that play each task's
 * reference behaviour, with token counts from a real tokenizer and a simulated prompt cache. No network beyond loopback.
 */
export async function startScriptedServer(options: {tasks?: readonly ScriptedTask[]; conversations?: readonly ScriptedConversation[]} = {}): Promise<ScriptedServer> {
	const tasks = options.tasks ?? builtinTasks;
	// A response script is played for the conversations it names; the tasks' references for the others.
	const conversations = options.conversations ?? [];
	const prompts = conversations.map(conversation => conversation.prompt);
	const twice = conversations.find((conversation, index) => prompts.indexOf(conversation.prompt) !== index);
	if (twice) throw new Error(`two scripted conversations (${twice.id} and another) have the same prompt; the provider could not tell them apart`);
	const cache = new PromptCache();
	// Built before listening, so that no request's latency includes it.
	await loadTokenizer();
	const server = createServer((request, response) => {
		handle(request, response, {tasks, conversations}, cache).catch(error => {
			send(response, 500, new ApiError(500, `The scripted provider failed: ${error instanceof Error ? error.message : String(error)}`, 'server_error').body());
		});
	});
	// Longer than any client's idle timeout, so a client never reuses a socket the server is closing.
	server.keepAliveTimeout = 65_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		close: () => new Promise<void>(resolve => {
			server.close(() => resolve());
			server.closeAllConnections();
		}),
	};
}

async function handle(request: IncomingMessage, response: ServerResponse, repertoire: Repertoire, cache: PromptCache): Promise<void> {
	const path = (request.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
	try {
		if (path === '/v1/models' || path === '/models') {
			if (request.method !== 'GET') throw new ApiError(405, `Method ${request.method} is not allowed on ${path}.`, 'invalid_request_error', 'method_not_allowed');
			send(response, 200, {object: 'list', data: [{id: 'hlab-scripted-reference', object: 'model', created: 0, owned_by: 'harness-lab'}]});
			return;
		}
		const api = apiOf(path);
		if (api === null) throw new ApiError(404, `Unknown request URL: ${request.method} ${path}.`, 'invalid_request_error', 'unknown_url');
		if (request.method !== 'POST') throw new ApiError(405, `Method ${request.method} is not allowed on ${path}; use POST.`, 'invalid_request_error', 'method_not_allowed');
		const json = await readJson(request);
		if (api === 'chat') answerChat(response, parseChatRequest(json), repertoire, cache);
		else answerResponses(response, parseResponsesRequest(json), repertoire, cache);
	} catch (error) {
		if (error instanceof ApiError) send(response, error.status, error.body());
		else throw error;
	}
}

function apiOf(path: string): 'chat' | 'responses' | null {
	if (path === '/v1/chat/completions' || path === '/chat/completions') return 'chat';
	if (path === '/v1/responses' || path === '/responses') return 'responses';
	return null;
}

function answerChat(response: ServerResponse, chat: ChatRequest, repertoire: Repertoire, cache: PromptCache): void {
	const reply = replyTo(chat, repertoire, cache);
	if (chat.stream) sendEvents(response, chatStream(reply, chat.stream_options?.include_usage === true));
	else send(response, 200, chatCompletion(reply));
}

function answerResponses(response: ServerResponse, request: ResponsesRequest, repertoire: Repertoire, cache: PromptCache): void {
	const reply = replyTo(chatRequestOf(request), repertoire, cache);
	if (request.stream) sendEvents(response, responsesStream(request, reply));
	else send(response, 200, responseObject(request, reply, responseId(), outputItems(reply)));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
	const text = await readBody(request);
	try {
		return JSON.parse(text);
	} catch {
		throw new ApiError(400, 'We could not parse the JSON body of your request. The body must be valid JSON.', 'invalid_request_error', 'invalid_json');
	}
}

function readBody(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > bodyLimit) {
				reject(new ApiError(413, `The request body exceeds ${bodyLimit} bytes.`, 'invalid_request_error', 'request_too_large'));
				request.resume();
				return;
			}
			chunks.push(chunk);
		});
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});
}

function send(response: ServerResponse, status: number, body: object): void {
	if (response.headersSent) return;
	const text = JSON.stringify(body);
	response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-request-id': `req_${randomBytes(8).toString('hex')}`});
	response.end(text);
}
