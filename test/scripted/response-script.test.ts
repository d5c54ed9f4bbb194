import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import OpenAI from 'openai';
import {readResponseScript, responseScriptSchema, startScriptedServer, type ResponseScript} from '../../scripted/index.js';
import {tempDir} from '../temp-dir.js';

const tools: OpenAI.ChatCompletionFunctionTool[] = [
	{type: 'function', function: {name: 'publish_report', parameters: {type: 'object'}}},
	{type: 'function', function: {name: 'done', parameters: {type: 'object'}}},
];
const prompt = 'Publish report.json for revenue 120 and cost 80, then finish.';
const script: ResponseScript = {
	schema: responseScriptSchema,
	tasks: {
		profit_math: [
			{content: 'Publishing.', tool_calls: [{type: 'function', function: {name: 'publish_report', arguments: '{"revenue":120,"cost":80}'}}]},
			{content: null, tool_calls: [{type: 'function', function: {name: 'done', arguments: '{"summary":"ok"}'}}]},
		],
		renamed: [{content: null, tool_calls: [{type: 'function', function: {name: 'publish', arguments: '{}'}}]}],
		chatty: [{content: 'Only words.', tool_calls: []}],
	},
};
const conversations = Object.entries(script.tasks).map(([id, turns]) => ({id, prompt: id === 'profit_math' ? prompt : `prompt of ${id}`, turns}));

async function serve(t: Test): Promise<OpenAI> {
	const server = await startScriptedServer({tasks: [], conversations});
	t.teardown(() => server.close());
	return new OpenAI({baseURL: server.url, apiKey: 'unused', maxRetries: 0});
}

async function apiError(request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError> | null> {
	try {
		await request;
		return null;
	} catch (error) {
		return error instanceof OpenAI.APIError ? error : null;
	}
}

t.test('plays the turns of a conversation in order, one per request, in the chat-completions shape', async t => {
	const client = await serve(t);
	const opening: OpenAI.ChatCompletionMessageParam[] = [{role: 'system', content: 'You are an agent.'}, {role: 'user', content: prompt}];
	const first = await client.chat.completions.create({model: 'any', messages: opening, tools});
	const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
	t.equal(first.choices[0]!.message.content, 'Publishing.');
	t.same([call.function.name, JSON.parse(call.function.arguments)], ['publish_report', {revenue: 120, cost: 80}]);
	t.ok(first.usage!.prompt_tokens > 0, 'usage is counted as for the built-in tasks');
	// The script does not depend on what the tool answered: the turns are fixed.
	const second = await client.chat.completions.create({model: 'any', tools, messages: [...opening, first.choices[0]!.message as OpenAI.ChatCompletionMessageParam, {role: 'tool', tool_call_id: call.id, content: 'anything at all'}]});
	const done = second.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
	t.equal(done.function.name, 'done');
	t.ok(second.usage!.prompt_tokens_details!.cached_tokens! > 0, 'the conversation is followed by its call ids (simulated cache)');
});

t.test('a prompt wrapped by a task template is still recognized; a message carrying no scripted prompt is not', async t => {
	const client = await serve(t);
	const wrapped = await client.chat.completions.create({model: 'any', tools, messages: [{role: 'user', content: `Task (profit_math):\n${prompt}\nWork in the workspace.`}]});
	t.equal(wrapped.choices[0]!.message.content, 'Publishing.');
	const unknown = await apiError(client.chat.completions.create({model: 'any', tools, messages: [{role: 'user', content: 'Publish report.json for revenue 120.'}]}));
	t.equal(unknown?.status, 400);
});

t.test('a script that runs out fails with script_exhausted', async t => {
	const client = await serve(t);
	const messages: OpenAI.ChatCompletionMessageParam[] = [
		{role: 'user', content: 'prompt of chatty'},
		{role: 'assistant', content: 'Only words.'},
		{role: 'user', content: 'Continue.'},
	];
	const error = await apiError(client.chat.completions.create({model: 'any', messages, tools}));
	t.equal(error?.status, 400);
	t.equal(error?.code, 'script_exhausted');
	t.match(error?.message, /script_exhausted: the response script of chatty has 1 turn; the run asks for turn 2/);
});

t.test('a turn that calls a tool the request does not offer fails with script_unknown_tool', async t => {
	const client = await serve(t);
	const error = await apiError(client.chat.completions.create({model: 'any', messages: [{role: 'user', content: 'prompt of renamed'}], tools}));
	t.equal(error?.code, 'script_unknown_tool');
	t.match(error?.message, /calls publish, which the harness does not offer \(publish_report, done\)/);
});

t.test('a text-only turn ends with finish_reason stop and no tool calls', async t => {
	const client = await serve(t);
	const answer = await client.chat.completions.create({model: 'any', messages: [{role: 'user', content: 'prompt of chatty'}], tools});
	t.equal(answer.choices[0]!.finish_reason, 'stop');
	t.equal(answer.choices[0]!.message.tool_calls, undefined);
	t.equal(answer.choices[0]!.message.content, 'Only words.');
});

t.test('two conversations with one prompt are refused: the provider could not tell them apart', async t => {
	await t.rejects(startScriptedServer({tasks: [], conversations: [{id: 'a', prompt: 'same', turns: []}, {id: 'b', prompt: 'same', turns: []}]}), /same prompt/);
});

t.test('a script file is read with its digest; object arguments become JSON text; an invalid one names its problems', async t => {
	const dir = await tempDir(t);
	const good = join(dir, 'good.json');
	await writeFile(good, JSON.stringify({schema: responseScriptSchema, tasks: {x: [{tool_calls: [{function: {name: 'done', arguments: {summary: 's'}}}]}]}}));
	const read = await readResponseScript(good);
	t.ok(read.ok);
	if (!read.ok) return;
	t.equal(read.script.tasks.x![0]!.tool_calls[0]!.function.arguments, '{"summary":"s"}');
	t.match(read.digest, /^sha256:[0-9a-f]{64}$/);
	const again = await readResponseScript(good);
	t.equal(again.ok && again.digest, read.digest, 'the digest is stable');

	const bad = join(dir, 'bad.json');
	await writeFile(bad, JSON.stringify({schema: 'other', tasks: {x: [{}]}}));
	const refused = await readResponseScript(bad);
	t.notOk(refused.ok);
	if (refused.ok) return;
	t.match(refused.problem, /schema/);
	t.match(refused.problem, /a turn has content, tool calls, or both/);
});
