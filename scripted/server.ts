import {randomBytes} from 'node:crypto';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {builtinTasks} from '../tasks/index.js';
import {ApiError} from './api-error.js';
import {parseChatRequest, textOf, type ChatRequest} from './chat-request.js';
import {conversationOf, newConversationId, PromptCache, promptParts} from './prompt-cache.js';
import type {ScriptedTask} from './scripted-task.js';
import {nextAction, pastCalls, type NextAction} from './replay.js';
import {playScript, type ScriptedMessage} from './play-script.js';
import type {ScriptedConversation} from './response-script.js';
import {playResponsive, responsiveSeed} from './responsive-play.js';
import {encode, loadTokenizer} from './tokenizer.js';

export type {ScriptedTask} from './scripted-task.js';


export interface ScriptedServer {
	/** The base URL for an OpenAI-compatible client, ending in /v1. */
	url: string;
	close(): Promise<void>;
}

const bodyLimit = 16 * 1024 * 1024;

/**
 * Starts the scripted provider on 127.0.0.1 (a free port): a chat-completions endpoint that plays each task's
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

interface Repertoire {
	tasks: readonly ScriptedTask[];
	conversations: readonly ScriptedConversation[];
}

async function handle(request: IncomingMessage, response: ServerResponse, repertoire: Repertoire, cache: PromptCache): Promise<void> {
	const path = (request.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
	try {
		if (path === '/v1/models' || path === '/models') {
			if (request.method !== 'GET') throw new ApiError(405, `Method ${request.method} is not allowed on ${path}.`, 'invalid_request_error', 'method_not_allowed');
			send(response, 200, {object: 'list', data: [{id: 'hlab-scripted-reference', object: 'model', created: 0, owned_by: 'harness-lab'}]});
			return;
		}
		if (path !== '/v1/chat/completions' && path !== '/chat/completions') throw new ApiError(404, `Unknown request URL: ${request.method} ${path}.`, 'invalid_request_error', 'unknown_url');
		if (request.method !== 'POST') throw new ApiError(405, `Method ${request.method} is not allowed on ${path}; use POST.`, 'invalid_request_error', 'method_not_allowed');
		const text = await readBody(request);
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			throw new ApiError(400, 'We could not parse the JSON body of your request. The body must be valid JSON.', 'invalid_request_error', 'invalid_json');
		}
		const chat = parseChatRequest(json);
		send(response, 200, answer(chat, repertoire, cache));
	} catch (error) {
		if (error instanceof ApiError) send(response, error.status, error.body());
		else throw error;
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

/** Plays the task's reference one step further and wraps it as a chat completion with honest token usage. */
function answer(chat: ChatRequest, {tasks, conversations}: Repertoire, cache: PromptCache): object {
	const firstUser = chat.messages.find(message => message.role === 'user');
	const prompt = firstUser ? textOf(firstUser.content) : '';
	// A harness's task template may wrap the prompt: the exact one first, else the longest one the message carries.
	const scripted = conversations.find(candidate => candidate.prompt === prompt)
		?? [...conversations].sort((a, b) => b.prompt.length - a.prompt.length).find(candidate => prompt.includes(candidate.prompt));
	if (scripted) {
		const conversation = conversationOf(chat) ?? newConversationId();
		return completion(chat, playScript(chat, scripted, conversation), conversation, cache);
	}
	const seed = responsiveSeed(chat.model);
	const {task, next, calls} = seed === null ? playReference(chat, tasks) : playResponsive(chat, seed, tasks);
	const offered = new Set((chat.tools ?? []).map(tool => tool.function.name));
	const tool = next.kind === 'done' ? 'done' : next.request.tool;
	if (!offered.has(tool)) throw new ApiError(400, `The scripted reference of ${task.id} needs the tool '${tool}', which the request does not offer.`, 'invalid_request_error', 'missing_tool', 'tools');

	const conversation = conversationOf(chat) ?? newConversationId();
	const callId = `call_${conversation}_${calls + 1}`;
	const args = JSON.stringify(next.kind === 'done' ? {summary: next.summary} : next.request.args);
	const content = next.kind === 'call' ? next.request.note ?? null : null;
	return completion(chat, {content, tool_calls: [{id: callId, type: 'function', function: {name: tool, arguments: args}}]}, conversation, cache);
}

/** An assistant message wrapped as a chat completion, with token usage from the tokenizer and the simulated cache. */
function completion(chat: ChatRequest, message: ScriptedMessage, conversation: string, cache: PromptCache): object {
	const {content} = message;
	const usage = cache.account(conversation, promptParts(chat));
	const completionTokens = encode(`${content ?? ''}${message.tool_calls.map(call => `${call.function.name}${call.function.arguments}`).join('')}`).length;
	return {
		id: `chatcmpl-${randomBytes(12).toString('hex')}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: chat.model,
		system_fingerprint: 'hlab-scripted',
		choices: [{
			index: 0,
			message: {role: 'assistant', content, refusal: null, ...(message.tool_calls.length > 0 ? {tool_calls: message.tool_calls} : {})},
			logprobs: null,
			finish_reason: message.tool_calls.length > 0 ? 'tool_calls' : 'stop',
		}],
		usage: {
			prompt_tokens: usage.promptTokens,
			completion_tokens: completionTokens,
			total_tokens: usage.promptTokens + completionTokens,
			prompt_tokens_details: {cached_tokens: usage.cachedTokens, cache_write_tokens: usage.writtenTokens},
			completion_tokens_details: {reasoning_tokens: 0},
		},
	};
}

/** The reference behaviour as it is: the task whose prompt is the first user message, played one step further. */
function playReference(chat: ChatRequest, tasks: readonly ScriptedTask[]): {task: ScriptedTask; next: NextAction; calls: number} {
	const firstUser = chat.messages.find(message => message.role === 'user');
	const prompt = firstUser ? textOf(firstUser.content) : '';
	const task = tasks.find(candidate => candidate.prompt === prompt);
	if (!task) throw new ApiError(400, 'The scripted provider knows no task with this prompt (the first user message must be a built-in task\'s prompt).', 'invalid_request_error', 'unknown_task', 'messages');
	const calls = pastCalls(chat.messages);
	try {
		return {task, next: nextAction(task.reference, calls), calls: calls.length};
	} catch (error) {
		if (error instanceof ApiError) throw error;
		throw new ApiError(500, `The reference behaviour of ${task.id} failed: ${error instanceof Error ? error.message : String(error)}`, 'server_error');
	}
}

function send(response: ServerResponse, status: number, body: object): void {
	if (response.headersSent) return;
	const text = JSON.stringify(body);
	response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-request-id': `req_${randomBytes(8).toString('hex')}`});
	response.end(text);
}
