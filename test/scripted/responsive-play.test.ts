import t from 'tap';
import {builtinAgent, offeredTools, renderTemplate, type Harness} from '../../harness/index.js';
import {parseChatRequest} from '../../scripted/chat-request.js';
import {playResponsive, responsiveModel, responsiveSeed} from '../../scripted/responsive-play.js';
import {builtinTasks} from '../../tasks/index.js';

const task = builtinTasks.find(candidate => candidate.id === 'sales_report')!;

/** The first request a harness sends for the task, with the tool calls made so far answered. */
function request(harness: Harness, seed: number, looks = 0) {
	const calls = Array.from({length: looks}, (_, index) => ({id: `c${index}`, type: 'function' as const, function: {name: 'list_files', arguments: '{"path":"."}'}}));
	return parseChatRequest({
		model: responsiveModel(seed),
		messages: [
			{role: 'system', content: harness.instructions.system},
			{role: 'user', content: renderTemplate(harness.task_template, {prompt: task.prompt, task_id: task.id})},
			...calls.flatMap(call => [{role: 'assistant', content: null, tool_calls: [call]}, {role: 'tool', tool_call_id: call.id, content: 'a.txt'}]),
		],
		tools: offeredTools(harness),
	});
}

/** How many times the model looks around before its reference's first call, on one seed. */
function looks(harness: Harness, seed: number): number {
	let count = 0;
	for (;;) {
		const next = playResponsive(request(harness, seed, count), seed, builtinTasks).next;
		if (next.kind !== 'call' || next.request.note !== 'Looking around the workspace first.') return count;
		count += 1;
	}
}

const seeds = Array.from({length: 12}, (_, index) => index + 1);
const withDescription = (description: string): Harness => ({...builtinAgent, tools: builtinAgent.tools.map(tool => (tool.name === 'list_files' ? {...tool, description} : tool))});

t.test('the model name carries the seed; other names are not the responsive model', async t => {
	t.equal(responsiveSeed(responsiveModel(7)), 7);
	t.equal(responsiveSeed('hlab-scripted-reference'), null);
	t.equal(responsiveSeed('responsive-seed-x'), null);
});

t.test('it looks around a seeded number of times, varying across seeds, the same on a seed', async t => {
	const counts = seeds.map(seed => looks(builtinAgent, seed));
	t.ok(new Set(counts).size > 1, `the count varies across seeds (${counts.join(', ')})`);
	t.ok(counts.every(count => count >= 0 && count <= 3));
	t.same(seeds.map(seed => looks(builtinAgent, seed)), counts, 'and is the same when asked again');
});

t.test('it responds to the harness: a description that says once, a disabled tool, a template around the prompt', async t => {
	const once = withDescription(`${builtinAgent.tools[2]!.description} Call it at most once.`);
	t.ok(seeds.every(seed => looks(once, seed) <= 1), 'it follows the tool description');
	t.ok(seeds.some(seed => looks(builtinAgent, seed) > 1), 'which matters: without it some seeds look more than once');
	const disabled: Harness = {...builtinAgent, enabled_tools: builtinAgent.enabled_tools.filter(name => name !== 'list_files')};
	t.ok(seeds.every(seed => looks(disabled, seed) === 0), 'it cannot call a tool it is not offered');
	const wrapped: Harness = {...builtinAgent, task_template: {text: 'Your task:\n{{prompt}}', variables: ['prompt']}};
	t.equal(playResponsive(request(wrapped, 1, looks(wrapped, 1)), 1, builtinTasks).task.id, 'sales_report', 'it finds the task inside a template');
});
