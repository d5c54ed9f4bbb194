import {readFile} from 'node:fs/promises';
import t, {type Test} from 'tap';
import OpenAI from 'openai';
import {getTask} from '../../tasks/index.js';
import {taskFile} from '../../tasks/define-task.js';
import {toolDefinitions} from '../../engine/index.js';
import {startScriptedServer} from '../../scripted/index.js';
import {scriptedServer} from '../engine/engine-run.js';

// What third-party agents speak, driven by the official client over loopback: streamed chat completions and the Responses API.
const server = await scriptedServer(t);
const client = new OpenAI({baseURL: server.url, apiKey: 'unused', maxRetries: 0});
const tools = toolDefinitions() as OpenAI.ChatCompletionFunctionTool[];
const responseTools: OpenAI.Responses.FunctionTool[] = tools.map(tool => ({type: 'function', name: tool.function.name, description: tool.function.description ?? null, parameters: tool.function.parameters ?? null, strict: false}));

interface Call {name: string; args: unknown}
interface Drive {calls: Call[]; finalText: string}

/** A workspace in memory, seeded from the task's files: enough for the reference to read, write and read back. */
async function workspaceOf(taskId: string): Promise<(call: Call) => string> {
	const files = new Map<string, string>();
	for (const path of ['MIGRATION.md', 'config/service.v1.json', 'README.md']) {
		try {
			files.set(path, await readFile(taskFile(taskId, path), 'utf8'));
		} catch {
			// Not every task has every file.
		}
	}
	return ({name, args}) => {
		const {path, content} = args as {path: string; content?: string};
		if (name === 'list_files') return [...files.keys()].join('\n');
		if (name === 'read_file') return files.get(path) ?? `error: ${path} does not exist`;
		if (name === 'write_file') {
			files.set(path, content!);
			return `wrote ${content!.length} bytes to ${path}`;
		}
		return `error: no tool ${name}`;
	};
}

/** A streamed chat completion read back: its text, its tool calls reassembled from their deltas, its usage chunk. */
async function streamedChat(messages: OpenAI.ChatCompletionMessageParam[], offered: OpenAI.ChatCompletionFunctionTool[] | null = tools) {
	const stream = await client.chat.completions.create({model: 'any', messages, ...(offered ? {tools: offered} : {}), stream: true, stream_options: {include_usage: true}});
	let content = '';
	let role: string | undefined;
	let finish: string | null = null;
	let usage: OpenAI.CompletionUsage | null = null;
	const calls: {id: string; type: 'function'; function: {name: string; arguments: string}}[] = [];
	for await (const chunk of stream) {
		if (chunk.usage) {
			usage = chunk.usage;
			if (chunk.choices.length !== 0) throw new Error('the usage chunk has choices');
			continue;
		}
		const choice = chunk.choices[0]!;
		role ??= choice.delta.role;
		content += choice.delta.content ?? '';
		for (const delta of choice.delta.tool_calls ?? []) {
			if (delta.id !== undefined) calls[delta.index] = {id: delta.id, type: 'function', function: {name: delta.function!.name!, arguments: ''}};
			calls[delta.index]!.function.arguments += delta.function?.arguments ?? '';
		}
		finish = choice.finish_reason ?? finish;
	}
	return {role, content, calls, finish, usage};
}

/** Drives a task's reference to its `done` call over chat completions, streamed or not. */
async function driveChat(taskId: string, streamed: boolean, aside: ((messages: OpenAI.ChatCompletionMessageParam[]) => Promise<void>) | null = null): Promise<Drive> {
	const run = await workspaceOf(taskId);
	const messages: OpenAI.ChatCompletionMessageParam[] = [{role: 'system', content: 'You are an agent.'}, {role: 'user', content: getTask(taskId)!.prompt}];
	const calls: Call[] = [];
	for (let turn = 0; turn < 20; turn += 1) {
		if (aside && turn === 2) await aside(messages);
		const reply = streamed ? await streamedChat(messages) : await plainChat(messages);
		// Agents send back an assistant turn that only calls tools with empty content.
		messages.push({role: 'assistant', content: reply.content || '', tool_calls: reply.calls});
		for (const call of reply.calls) {
			const made = {name: call.function.name, args: JSON.parse(call.function.arguments) as unknown};
			calls.push(made);
			if (made.name === 'done') return {calls, finalText: (made.args as {summary: string}).summary};
			messages.push({role: 'tool', tool_call_id: call.id, content: run(made)});
		}
	}
	throw new Error('the reference did not finish');
}

async function plainChat(messages: OpenAI.ChatCompletionMessageParam[]) {
	const reply = await client.chat.completions.create({model: 'any', messages, tools});
	const message = reply.choices[0]!.message;
	return {content: message.content ?? '', calls: (message.tool_calls ?? []) as OpenAI.ChatCompletionMessageFunctionToolCall[]};
}

/** Drives a task's reference over the Responses API, streamed, the whole history sent each time (store: false). */
async function driveResponses(t: Test, taskId: string): Promise<Drive> {
	const run = await workspaceOf(taskId);
	const input: OpenAI.Responses.ResponseInputItem[] = [{role: 'user', content: [{type: 'input_text', text: getTask(taskId)!.prompt}]}];
	const calls: Call[] = [];
	for (let turn = 0; turn < 20; turn += 1) {
		const stream = await client.responses.create({model: 'any', instructions: 'You are an agent.', input, tools: responseTools, stream: true, store: false, parallel_tool_calls: false});
		let completed: OpenAI.Responses.Response | null = null;
		const types: string[] = [];
		for await (const event of stream) {
			types.push(event.type);
			if (event.type === 'response.completed') completed = event.response;
		}
		t.equal(types[0], 'response.created', 'the stream opens with response.created');
		t.equal(types.at(-1), 'response.completed', 'the stream ends with response.completed');
		const usage = completed!.usage!;
		t.ok(usage.input_tokens > 0 && usage.output_tokens > 0 && usage.total_tokens === usage.input_tokens + usage.output_tokens, 'response.completed carries usage');
		for (const item of completed!.output) {
			if (item.type === 'message') input.push({type: 'message', role: 'assistant', content: item.content.map(part => ({type: 'output_text', text: (part as {text: string}).text, annotations: []}))} as unknown as OpenAI.Responses.ResponseInputItem);
			if (item.type !== 'function_call') continue;
			input.push({type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments});
			const made = {name: item.name, args: JSON.parse(item.arguments) as unknown};
			calls.push(made);
			if (made.name === 'done') return {calls, finalText: (made.args as {summary: string}).summary};
			input.push({type: 'function_call_output', call_id: item.call_id, output: run(made)});
		}
	}
	throw new Error('the reference did not finish');
}

for (const taskId of ['answer_from_prompt', 'json_config_migration']) {
	t.test(`${taskId}: streamed chat completions and the Responses API play the same reference as plain chat completions`, async t => {
		const plain = await driveChat(taskId, false);
		t.ok(plain.calls.length >= 1 && plain.calls.at(-1)!.name === 'done', 'the plain run ends with done');
		t.same(await driveChat(taskId, true), plain, 'streamed: the same tool calls and final text');
		t.same(await driveResponses(t, taskId), plain, 'Responses: the same tool calls and final text');
	});
}

t.test('a streamed chat completion has the role first, content and arguments in pieces, a finish reason, a usage chunk and [DONE]', async t => {
	const opening: OpenAI.ChatCompletionMessageParam[] = [{role: 'user', content: getTask('json_config_migration')!.prompt}];
	const plain = await client.chat.completions.create({model: 'any', messages: opening, tools});
	const streamed = await streamedChat(opening);
	t.equal(streamed.role, 'assistant');
	t.equal(streamed.finish, 'tool_calls');
	t.same(streamed.usage, plain.usage, 'the usage chunk reports what the plain answer reports');
	t.same(streamed.calls.map(call => call.function), plain.choices[0]!.message.tool_calls!.map(call => (call as OpenAI.ChatCompletionMessageFunctionToolCall).function));

	const response = await fetch(`${server.url}/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({model: 'any', messages: opening, tools, stream: true, stream_options: {include_usage: true}})});
	t.match(response.headers.get('content-type'), /^text\/event-stream/);
	const events = (await response.text()).split('\n\n').filter(block => block !== '').map(block => block.replace(/^data: /, ''));
	t.equal(events.at(-1), '[DONE]', 'the stream ends with [DONE]');
	const chunks = events.slice(0, -1).map(data => JSON.parse(data) as OpenAI.ChatCompletionChunk);
	const fragments = chunks.flatMap(chunk => chunk.choices[0]?.delta.tool_calls ?? []);
	t.ok(fragments[0]!.id && fragments[0]!.function!.name && fragments[0]!.type === 'function', 'the first tool-call delta names the call');
	t.ok(fragments.filter(fragment => fragment.function?.arguments).length > 1, 'the arguments come in fragments');
	t.ok(chunks.slice(0, -1).every(chunk => chunk.usage === null), 'every chunk before the usage chunk has usage: null');

	const withoutUsage = await client.chat.completions.create({model: 'any', messages: opening, tools, stream: true});
	for await (const chunk of withoutUsage) t.notOk(chunk.usage, 'no usage chunk unless include_usage');

	const accumulated = await client.chat.completions.stream({model: 'any', messages: opening, tools}).finalChatCompletion();
	t.same(accumulated.choices[0]!.message.tool_calls!.map(call => (call as OpenAI.ChatCompletionMessageFunctionToolCall).function), streamed.calls.map(call => call.function), 'the client\'s own accumulator agrees');
});

t.test('the Responses API answers a non-streamed request with the response object, and its own stream helper accumulates it', async t => {
	const input = getTask('json_config_migration')!.prompt;
	const response = await client.responses.create({model: 'any', input, tools: responseTools});
	t.equal(response.object, 'response');
	t.equal(response.status, 'completed');
	t.match(response.output, [{type: 'function_call', name: 'list_files', arguments: '{"path":"."}'}]);
	t.ok(response.usage!.input_tokens > 0);
	const final = await client.responses.stream({model: 'any', input: getTask('answer_from_prompt')!.prompt, tools: responseTools}).finalResponse();
	t.match(final.output, [{type: 'function_call', name: 'done'}]);
});

t.test('a Responses turn with text and a call is one assistant turn of a response script', async t => {
	const prompt = 'Say something, then finish.';
	const scripted = await startScriptedServer({conversations: [{id: 'talk', prompt, turns: [
		{content: 'Looking first.', tool_calls: [{type: 'function', function: {name: 'list_files', arguments: '{"path":"."}'}}]},
		{content: 'All done.', tool_calls: [{type: 'function', function: {name: 'done', arguments: '{"summary":"ok"}'}}]},
	]}]});
	t.teardown(() => scripted.close());
	const talk = new OpenAI({baseURL: scripted.url, apiKey: 'unused', maxRetries: 0});
	const first = await talk.responses.stream({model: 'any', input: prompt, tools: responseTools}).finalResponse();
	t.equal(first.output_text, 'Looking first.');
	const call = first.output.find(item => item.type === 'function_call')!;
	const input: OpenAI.Responses.ResponseInputItem[] = [{role: 'user', content: prompt}, ...first.output as OpenAI.Responses.ResponseInputItem[], {type: 'function_call_output', call_id: call.call_id, output: 'README.md'}];
	const second = await talk.responses.create({model: 'any', input, tools: responseTools});
	t.equal(second.output_text, 'All done.');
	t.match(second.output, [{type: 'message'}, {type: 'function_call', name: 'done'}], 'the second turn, not an exhausted script');
});

t.test('a request without tools (an agent asking for a title) gets a short text and does not shift the task\'s steps', async t => {
	const plain = await driveChat('json_config_migration', false);
	const asides: string[] = [];
	const withAsides = await driveChat('json_config_migration', true, async messages => {
		const bare = await client.chat.completions.create({model: 'any', messages});
		t.equal(bare.choices[0]!.finish_reason, 'stop');
		asides.push(bare.choices[0]!.message.content!);
		const none = await streamedChat(messages, tools.map(tool => tool));
		t.equal(none.calls.length, 1, 'the same history with tools still plays its step');
		const streamedAside = await streamedChat(messages, null);
		asides.push(streamedAside.content);
		t.equal(streamedAside.finish, 'stop');
		const responsesAside = await client.responses.create({model: 'any', input: [{role: 'user', content: getTask('json_config_migration')!.prompt}], stream: false});
		asides.push(responsesAside.output_text);
		const declined = await client.chat.completions.create({model: 'any', messages, tools, tool_choice: 'none'});
		asides.push(declined.choices[0]!.message.content!);
	});
	t.same(withAsides, plain, 'the run with asides in the middle makes the same calls');
	t.ok(asides.length === 4 && asides.every(text => text.length > 0 && text.length < 80), `each aside is a short text (${asides.join(' | ')})`);
	const title = await client.chat.completions.create({model: 'any', stream: false, messages: [{role: 'system', content: 'You are a title generator.'}, {role: 'user', content: 'Generate a title for: fix the tests'}]});
	t.ok(title.choices[0]!.message.content, 'a title request for no known task is answered too');
});

t.test('accepts what agents send besides the messages', async t => {
	const task = getTask('json_config_migration')!;
	const body = {
		model: 'any', stream: true, stream_options: {include_usage: true}, max_completion_tokens: 4096, store: false, parallel_tool_calls: true, tool_choice: 'auto', temperature: 0, some_future_field: {x: 1},
		tools: tools.map(tool => ({...tool, function: {...tool.function, strict: false}})),
		messages: [{role: 'system', content: [{type: 'text', text: 'You are an agent.', cache_control: {type: 'ephemeral'}}]}, {role: 'user', content: [{type: 'text', text: task.prompt}]}],
	};
	const response = await fetch(`${server.url}/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)});
	t.equal(response.status, 200);
	t.match(await response.text(), /"name":"list_files"/);
	const first = await plainChat([{role: 'user', content: task.prompt}]);
	for (const content of [null, '', []]) {
		const messages = [{role: 'user', content: task.prompt}, {role: 'assistant', content, tool_calls: first.calls}, {role: 'tool', tool_call_id: first.calls[0]!.id, content: 'MIGRATION.md'}];
		const reply = await client.chat.completions.create({model: 'any', tools, messages: messages as OpenAI.ChatCompletionMessageParam[]});
		t.equal((reply.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name, 'read_file', `an assistant turn with content ${JSON.stringify(content)} is read`);
	}
});

t.test('malformed requests get 4xx API errors, streamed or not, on both APIs', async t => {
	const post = async (path: string, body: string): Promise<{status: number; error: {type?: string; code?: string | null; param?: string | null}}> => {
		const response = await fetch(`${server.url}${path}`, {method: 'POST', headers: {'content-type': 'application/json'}, body});
		t.match(response.headers.get('content-type'), /^application\/json/, `${path} ${body.slice(0, 60)}: a JSON error, not a stream`);
		return {status: response.status, error: ((await response.json()) as {error: {type?: string; code?: string | null}}).error};
	};
	const prompt = getTask('json_config_migration')!.prompt;
	const cases: [string, unknown, string | null][] = [
		['/chat/completions', {model: 'any', stream: true, messages: 'hello'}, 'messages'],
		['/chat/completions', {model: 'any', stream: true, stream_options: {include_usage: 'yes'}, messages: [{role: 'user', content: prompt}], tools}, 'stream_options.include_usage'],
		['/chat/completions', {model: 'any', stream: true, messages: [{role: 'user', content: [{type: 'text'}]}]}, 'messages.0.content.0'],
		['/chat/completions', null, null],
		['/responses', {model: 'any'}, 'input'],
		['/responses', {model: 'any', stream: true, input: []}, 'input'],
		['/responses', {model: 'any', stream: true, input: [{type: 'function_call', name: 'list_files', arguments: '{}'}]}, 'input.0.call_id'],
		['/responses', {model: 'any', input: [{type: 'wizardry'}]}, 'input.0.type'],
		['/responses', {model: 'any', input: prompt, tools: [{type: 'function', description: 'no name'}]}, 'tools.0.name'],
		['/responses', [1, 2], null],
	];
	for (const [path, body, param] of cases) {
		const {status, error} = await post(path, JSON.stringify(body));
		t.equal(status, 400, `${path} ${JSON.stringify(body).slice(0, 80)} is refused`);
		t.equal(error.type, 'invalid_request_error');
		t.equal(error.code, 'invalid_value');
		if (param !== null) t.equal(error.param, param);
	}
	t.equal((await post('/responses', 'not json {')).error.code, 'invalid_json');
	const stateful = await post('/responses', JSON.stringify({model: 'any', input: prompt, previous_response_id: 'resp_1', stream: true}));
	t.same([stateful.status, stateful.error.code, stateful.error.param], [400, 'unsupported_value', 'previous_response_id'], 'a stateful continuation is refused: the provider keeps no responses');
	const diverged = await post('/responses', JSON.stringify({model: 'any', stream: true, tools: responseTools, input: [{role: 'user', content: prompt}, {type: 'function_call', call_id: 'call_x', name: 'write_file', arguments: '{"path":"x","content":""}'}, {type: 'function_call_output', call_id: 'call_x', output: 'ok'}]}));
	t.same([diverged.status, diverged.error.code], [400, 'conversation_diverged'], 'a Responses history that leaves the reference is refused like a chat one');
	const get = await fetch(`${server.url}/responses`);
	t.equal(get.status, 405);
});
