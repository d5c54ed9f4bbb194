import t, {type Test} from 'tap';
import OpenAI from 'openai';
import {getTask} from '../../tasks/index.js';
import type {ScriptedTask} from '../../scripted/index.js';
import {scriptedServer} from '../engine/engine-run.js';

// How the scripted provider reads an agent's request: the task inside a wrapped prompt, the step from the history, asides.
const bash = {type: 'function' as const, function: {name: 'bash', parameters: {type: 'object', properties: {command: {type: 'string'}}, required: ['command']}}};
const write = {type: 'function' as const, function: {name: 'write', parameters: {type: 'object', properties: {path: {type: 'string'}, content: {type: 'string'}}, required: ['path', 'content']}}};

async function client(t: Test, tasks?: ScriptedTask[]): Promise<OpenAI> {
	const server = await scriptedServer(t, tasks);
	return new OpenAI({baseURL: server.url, apiKey: 'unused', maxRetries: 0});
}

async function expectError(t: Test, call: () => Promise<unknown>, code: string): Promise<string> {
	try {
		await call();
	} catch (error) {
		t.equal((error as {code?: string}).code, code, `refused: ${code}`);
		return (error as Error).message;
	}
	t.fail(`expected ${code}`);
	return '';
}

t.test('the task is the longest built-in prompt any user message carries, wrapped or not', async t => {
	const short = {id: 'short', prompt: 'Fix the tests.', reference: function* () {
		yield {tool: 'run_command', args: {command: 'echo short'}};
		return 'short';
	}};
	const long = {id: 'long', prompt: 'Fix the tests. Then write NOTES.md.', reference: function* () {
		yield {tool: 'run_command', args: {command: 'echo long'}};
		return 'long';
	}};
	const api = await client(t, [short, long]);
	const first = async (messages: OpenAI.ChatCompletionMessageParam[]) => {
		const reply = await api.chat.completions.create({model: 'any', messages, tools: [bash]});
		return JSON.parse((reply.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments) as {command: string};
	};
	t.match(await first([{role: 'user', content: 'Fix the tests.'}]), {command: /^: step 1\necho short/}, 'exactly a prompt');
	t.match(await first([{role: 'user', content: '<task>\nFix the tests. Then write NOTES.md.\n</task>'}]), {command: /^: step 1\necho long/}, 'wrapped: the longest prompt it contains');
	t.match(await first([{role: 'user', content: 'I am working in /w.'}, {role: 'assistant', content: 'Got it.'}, {role: 'user', content: 'Please: Fix the tests.'}]), {command: /^: step 1\necho short/}, 'in a later user message, after an environment context and a reply');
	await expectError(t, () => api.chat.completions.create({model: 'any', messages: [{role: 'system', content: 'Fix the tests.'}, {role: 'user', content: 'hello'}], tools: [bash]}), 'unknown_task');
});

t.test('on an agent\'s tools, the step is the count of tool results; a history that called other tools is refused', async t => {
	const api = await client(t);
	const prompt = getTask('sales_report')!.prompt;
	const opening: OpenAI.ChatCompletionMessageParam[] = [{role: 'user', content: prompt}];
	const reply = await api.chat.completions.create({model: 'any', messages: opening, tools: [bash, write]});
	const call = reply.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
	t.equal(call.function.name, 'bash', 'the first step (list) through the shell');
	const after = (name: string): OpenAI.ChatCompletionMessageParam[] => [...opening, {role: 'assistant', content: '', tool_calls: [{...call, function: {...call.function, name}}]}, {role: 'tool', tool_call_id: call.id, content: 'README.md\ndata\nhlab-exit: 0'}];
	const second = await api.chat.completions.create({model: 'any', messages: after('bash'), tools: [bash, write]});
	t.match((second.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments, /cat -- 'README.md'/, 'the second step reads the readme');
	const message = await expectError(t, () => api.chat.completions.create({model: 'any', messages: after('write'), tools: [bash, write]}), 'conversation_diverged');
	t.match(message, /expected bash, found write/);
	await expectError(t, () => api.chat.completions.create({model: 'any', messages: opening, tools: [write]}), 'missing_tool');
	const wrapped: OpenAI.ChatCompletionMessageParam[] = [{role: 'user', content: 'I am working in /w.'}, {role: 'assistant', content: 'Got it.'}, ...after('bash')];
	const again = await api.chat.completions.create({model: 'any', messages: wrapped, tools: [bash, write]});
	const firstId = call.id.replace(/_\d+$/, '');
	t.equal((again.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).id.replace(/_\d+$/, ''), firstId, 'an assistant text before the first call does not start another conversation');
	const aside = await api.chat.completions.create({model: 'any', messages: after('bash')});
	t.same([aside.choices[0]!.finish_reason, aside.choices[0]!.message.tool_calls ?? []], ['stop', []], 'a request without tools is an aside');
});

t.test('without a finishing tool, the final answer is a text with no tool calls, on both APIs', async t => {
	const api = await client(t);
	const prompt = `Context first.\n\n${getTask('answer_from_prompt')!.prompt}`;
	const chat = await api.chat.completions.create({model: 'any', messages: [{role: 'user', content: prompt}], tools: [bash]});
	t.same([chat.choices[0]!.finish_reason, chat.choices[0]!.message.content], ['stop', 'The job finished at 12:25.']);
	const responses = await api.responses.create({model: 'any', input: [{role: 'user', content: prompt}], tools: [{type: 'function', name: 'exec_command', parameters: {type: 'object', properties: {cmd: {type: 'string'}}, required: ['cmd']}, strict: false}]});
	t.same([responses.output.map(item => item.type), responses.output_text], [['message'], 'The job finished at 12:25.']);
});
