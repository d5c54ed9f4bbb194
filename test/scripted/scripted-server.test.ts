import t, {type Test} from 'tap';
import OpenAI from 'openai';
import {getTask} from '../../tasks/index.js';
import {toolDefinitions} from '../../engine/index.js';
import {scriptedServer} from '../engine/engine-run.js';

const task = getTask('test_failure_fix')!;
const server = await scriptedServer(t);
const client = new OpenAI({baseURL: server.url, apiKey: 'unused', maxRetries: 0});
const tools = toolDefinitions() as OpenAI.ChatCompletionFunctionTool[];
const opening: OpenAI.ChatCompletionMessageParam[] = [{role: 'system', content: 'You are an agent.'}, {role: 'user', content: task.prompt}];

async function expectApiError(t: Test, request: () => Promise<unknown>, status: number, code: string | null, param?: string | null): Promise<void> {
	try {
		await request();
		t.fail('the request was answered');
	} catch (error) {
		t.ok(error instanceof OpenAI.APIError, 'the client reports an API error');
		const apiError = error as InstanceType<typeof OpenAI.APIError>;
		t.equal(apiError.status, status);
		t.equal(apiError.type, 'invalid_request_error');
		t.equal(apiError.code, code);
		if (param !== undefined) t.equal(apiError.param, param);
		t.type((apiError.error as {message?: unknown}).message, 'string', 'the error has a message');
	}
}

t.test('plays the reference one tool call at a time and reacts to the results it is sent', async t => {
	const first = await client.chat.completions.create({model: 'any', messages: opening, tools});
	const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
	t.equal(first.object, 'chat.completion');
	t.equal(first.choices[0]!.finish_reason, 'tool_calls');
	t.equal(call.function.name, 'list_files');
	const afterListing = [...opening, first.choices[0]!.message as OpenAI.ChatCompletionMessageParam, {role: 'tool' as const, tool_call_id: call.id, content: 'package.json\nsrc/\nsrc/discount.js'}];
	const second = await client.chat.completions.create({model: 'any', messages: afterListing, tools});
	const testRun = second.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
	t.equal(testRun.function.name, 'run_command');

	const answer = async (observation: string): Promise<OpenAI.ChatCompletionMessageFunctionToolCall> => {
		const reply = await client.chat.completions.create({model: 'any', tools, messages: [...afterListing, second.choices[0]!.message as OpenAI.ChatCompletionMessageParam, {role: 'tool', tool_call_id: testRun.id, content: observation}]});
		return reply.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
	};
	const failing = await answer('exit_code: 1\n--- stdout ---\n.X\n--- stderr ---\n');
	t.same([failing.function.name, JSON.parse(failing.function.arguments)], ['read_file', {path: 'src/discount.js'}], 'failing tests lead to reading the source');
	const passing = await answer('exit_code: 0\n--- stdout ---\n..\n--- stderr ---\n');
	t.equal(passing.function.name, 'done', 'passing tests lead to finishing at once');
});

t.test('counts tokens and reports the prefix shared with the previous request of the conversation as cached', async t => {
	const first = await client.chat.completions.create({model: 'any', messages: opening, tools});
	t.equal(first.usage!.prompt_tokens_details!.cached_tokens, 0, 'nothing is cached on a first request');
	t.ok(first.usage!.prompt_tokens > 100, 'the prompt with its tool definitions has many tokens');
	t.ok(first.usage!.completion_tokens > 0);
	t.equal(first.usage!.total_tokens, first.usage!.prompt_tokens + first.usage!.completion_tokens);
	const call = first.choices[0]!.message.tool_calls![0]!;
	const second = await client.chat.completions.create({model: 'any', tools, messages: [...opening, first.choices[0]!.message as OpenAI.ChatCompletionMessageParam, {role: 'tool', tool_call_id: call.id, content: 'package.json'}]});
	const cached = second.usage!.prompt_tokens_details!.cached_tokens!;
	t.ok(cached >= first.usage!.prompt_tokens - 2 && cached < second.usage!.prompt_tokens, `the second request reuses the first one's prompt (${cached} of ${second.usage!.prompt_tokens})`);
	const other = await client.chat.completions.create({model: 'any', messages: opening, tools});
	t.equal(other.usage!.prompt_tokens_details!.cached_tokens, 0, 'another conversation does not share the cache');
});

t.test('serves many conversations at once', async t => {
	const replies = await Promise.all(Array.from({length: 12}, () => client.chat.completions.create({model: 'any', messages: opening, tools})));
	t.equal(new Set(replies.map(reply => reply.choices[0]!.message.tool_calls![0]!.id)).size, 12, 'each conversation gets its own ids');
});

t.test('answers malformed requests with API-shaped errors', async t => {
	await expectApiError(t, () => client.post('/chat/completions', {body: 'this is { not json', headers: {'content-type': 'application/json'}}), 400, 'invalid_json', null);
	await expectApiError(t, () => client.chat.completions.create({model: 'any', messages: []}), 400, 'invalid_value', 'messages');
	await expectApiError(t, () => client.chat.completions.create({model: 'any', messages: [{role: 'wizard', content: 'hi'} as never]}), 400, 'invalid_value', 'messages.0.role');
	await expectApiError(t, () => client.chat.completions.create({model: '', messages: opening}), 400, 'invalid_value', 'model');
	await expectApiError(t, () => client.chat.completions.create({model: 'any', messages: [{role: 'user', content: 'Write me a poem.'}], tools}), 400, 'unknown_task', 'messages');
	await expectApiError(t, () => client.chat.completions.create({model: 'any', messages: opening, tools: tools.filter(tool => tool.function.name !== 'list_files')}), 400, 'missing_tool', 'tools');
	const dangling: OpenAI.ChatCompletionMessageParam = {role: 'assistant', content: null, tool_calls: [{id: 'call_x', type: 'function', function: {name: 'list_files', arguments: '{}'}}]};
	await expectApiError(t, () => client.chat.completions.create({model: 'any', tools, messages: [...opening, dangling]}), 400, null);
	const foreign: OpenAI.ChatCompletionMessageParam[] = [...opening, {role: 'assistant', content: null, tool_calls: [{id: 'call_y', type: 'function', function: {name: 'write_file', arguments: '{"path":"x","content":""}'}}]}, {role: 'tool', tool_call_id: 'call_y', content: 'wrote 0 bytes to x'}];
	await expectApiError(t, () => client.chat.completions.create({model: 'any', tools, messages: foreign}), 400, 'conversation_diverged', 'messages');
	await expectApiError(t, () => client.get('/no/such/route'), 404, 'unknown_url');
});

t.test('lists its model', async t => {
	const models = await client.models.list();
	t.same(models.data.map(model => model.id), ['hlab-scripted-reference']);
});
