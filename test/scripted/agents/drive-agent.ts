import {readFile} from 'node:fs/promises';
import OpenAI from 'openai';
import {installRoot} from '../../../files/install-root.js';
import type {AgentTools} from './agent-tools.js';

/** A call the scripted provider made, as the agent executed it. */
export interface MadeCall {
	name: string;
	args: Record<string, unknown>;
	result: string;
}

export interface AgentRun {
	finalText: string | null;
	calls: MadeCall[];
	/** Texts of the requests without tools (titles) sent along the way. */
	asides: string[];
}

const maxTurns = 100;

/**
 * Where a captured request (`{method, url, headers, body}`, from a real agent run) names its own workspace and prompt;
 * the hand-made fixtures say `{{cwd}}` and `{{prompt}}` instead.
 */
const captured: Record<string, {cwd: string; prompt: string}> = {
	'pi': {cwd: '/tmp/aa/pi-ok/ws', prompt: 'Write hello.txt containing hi.'},
	'qwen-code': {cwd: '/tmp/aa/qwen-ok/ws', prompt: 'Write hello.txt containing hi.'},
	// The capture cut opencode's system prompt short, its environment block (the working directory) with it.
	'opencode': {cwd: '/tmp/aa/opencode-ok/ws', prompt: 'Write hello.txt containing hi.'},
	'opencode-title': {cwd: '/tmp/aa/opencode-ok/ws', prompt: 'Write hello.txt containing hi.'},
};

/** The agent's opening request from its fixture (test/fixtures/agents/<fixture>-request.json), with the workspace and the task prompt filled in. */
export async function openingRequest(fixture: string, cwd: string, prompt: string): Promise<Record<string, unknown>> {
	const text = await readFile(`${installRoot}/test/fixtures/agents/${fixture}-request.json`, 'utf8');
	const from = captured[fixture] ?? {cwd: '{{cwd}}', prompt: '{{prompt}}'};
	// Filled inside the parsed JSON, so a prompt's quotes and newlines stay text.
	const value = JSON.parse(text, (_key, field: unknown) => (typeof field === 'string' ? field.replaceAll(from.cwd, cwd).replaceAll(from.prompt, prompt) : field)) as Record<string, unknown>;
	return 'body' in value ? value.body as Record<string, unknown> : value;
}

/** Plays the agent's loop over chat completions, streamed: request, execute the calls, resend the whole history, until a text with no calls. */
export async function driveChat(client: OpenAI, body: Record<string, unknown>, tools: AgentTools, title: Record<string, unknown> | null): Promise<AgentRun> {
	const messages = [...body.messages as OpenAI.ChatCompletionMessageParam[]];
	const run: AgentRun = {finalText: null, calls: [], asides: []};
	for (let turn = 0; turn < maxTurns; turn += 1) {
		// opencode asks for a title, without tools, alongside its first turn.
		if (title && turn === 0) run.asides.push((await streamedChat(client, title)).content);
		const reply = await streamedChat(client, {...body, messages});
		messages.push({role: 'assistant', content: reply.content, ...(reply.calls.length > 0 ? {tool_calls: reply.calls} : {})});
		if (reply.calls.length === 0) return {...run, finalText: reply.content};
		for (const call of reply.calls) {
			const made = await execute(tools, call.function.name, call.function.arguments);
			run.calls.push(made);
			messages.push({role: 'tool', tool_call_id: call.id, content: made.result});
		}
	}
	throw new Error(`the agent loop did not end in ${maxTurns} turns`);
}

async function streamedChat(client: OpenAI, body: Record<string, unknown>): Promise<{content: string; calls: OpenAI.ChatCompletionMessageFunctionToolCall[]}> {
	const stream = await client.chat.completions.create({...body, stream: true} as unknown as OpenAI.ChatCompletionCreateParamsStreaming);
	let content = '';
	const calls: OpenAI.ChatCompletionMessageFunctionToolCall[] = [];
	for await (const chunk of stream) {
		const delta = chunk.choices[0]?.delta;
		content += delta?.content ?? '';
		for (const part of delta?.tool_calls ?? []) {
			if (part.id !== undefined) calls[part.index] = {id: part.id, type: 'function', function: {name: part.function!.name!, arguments: ''}};
			calls[part.index]!.function.arguments += part.function?.arguments ?? '';
		}
	}
	return {content, calls};
}

/** Plays Codex's loop over the Responses API, streamed, the whole history in `input` (store: false). */
export async function driveResponses(client: OpenAI, body: Record<string, unknown>, tools: AgentTools): Promise<AgentRun> {
	const input = [...body.input as OpenAI.Responses.ResponseInputItem[]];
	const run: AgentRun = {finalText: null, calls: [], asides: []};
	for (let turn = 0; turn < maxTurns; turn += 1) {
		const stream = await client.responses.create({...body, input, stream: true} as unknown as OpenAI.Responses.ResponseCreateParamsStreaming);
		let completed: OpenAI.Responses.Response | null = null;
		for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
		if (completed === null) throw new Error('the stream ended without response.completed');
		const calls = completed.output.filter(item => item.type === 'function_call');
		const text = completed.output.filter(item => item.type === 'message').flatMap(item => item.content.map(part => (part.type === 'output_text' ? part.text : ''))).join('');
		for (const item of completed.output) {
			if (item.type === 'message') input.push({type: 'message', role: 'assistant', content: item.content.map(part => ({type: 'output_text', text: (part as {text: string}).text}))} as unknown as OpenAI.Responses.ResponseInputItem);
			if (item.type === 'function_call') input.push({type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments});
		}
		if (calls.length === 0) return {...run, finalText: text};
		for (const call of calls) {
			const made = await execute(tools, call.name, call.arguments);
			run.calls.push(made);
			input.push({type: 'function_call_output', call_id: call.call_id, output: made.result});
		}
	}
	throw new Error(`the agent loop did not end in ${maxTurns} turns`);
}

async function execute(tools: AgentTools, name: string, text: string): Promise<MadeCall> {
	const args = JSON.parse(text) as Record<string, unknown>;
	return {name, args, result: await tools.call(name, args)};
}
