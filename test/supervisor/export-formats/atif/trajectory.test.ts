import {createServer} from 'node:http';
import {mkdir, readFile, rm} from 'node:fs/promises';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {runAgent} from '../../../../engine/loop/run-agent.js';
import {AtifTrajectory, writeTaskTrajectory} from '../../../../supervisor/export-formats/index.js';
import type {TaskResult} from '../../../../supervisor/attempt/report/report-schema.js';
import {builtinTasks} from '../../../../tasks/index.js';
import {attempt, freeze, scratch} from '../../../e2e/experiment-fixture.js';
import {hlab} from '../../../hlab.js';
import {checkNoLeaks} from '../../../leak-check.js';

checkNoLeaks(t);

const sum = (values: Array<number | null | undefined>): number | null => values.some(value => value == null) ? null : values.reduce<number>((total, value) => total + value!, 0);

async function trajectoryOf(t: Test, dir: string, result: TaskResult): Promise<AtifTrajectory> {
	t.equal(result.evidence.trajectory, result.evidence.result!.replace('result.json', 'trajectory.json'), `${result.task_id}: the result names its trajectory`);
	return JSON.parse(await readFile(join(dir, result.evidence.trajectory!), 'utf8')) as AtifTrajectory;
}

t.test('every trajectory of a built-in-suite scripted attempt is valid ATIF, with the metered usage in its metrics', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'all', policy: {concurrency: 2}});
	const {dir: evidence, report} = await attempt(plan, join(dir, 'run'));
	t.equal(report.tasks.length, builtinTasks.length, 'the whole built-in suite ran');
	for (const result of report.tasks) {
		const trajectory = await trajectoryOf(t, evidence, result);
		const checked = AtifTrajectory.safeParse(trajectory);
		t.ok(checked.success, `${result.task_id}: valid (${checked.error?.message ?? ''})`);
		t.equal(trajectory.schema_version, 'ATIF-v1.7');
		t.equal(trajectory.session_id, `${report.attempt_id}/${result.evidence.result!.split('/')[1]}`);
		t.match(trajectory.agent, {name: 'builtin-coding-agent', version: /^sha256:[0-9a-f]{64}$/, model_name: 'hlab-scripted-reference'});
		const agentSteps = trajectory.steps.filter(step => step.source === 'agent');
		t.equal(agentSteps.length, result.usage!.turns, `${result.task_id}: one agent step per model request`);
		t.equal(sum(agentSteps.map(step => step.metrics?.prompt_tokens)), result.usage!.input_tokens, `${result.task_id}: prompt tokens are the metered input tokens`);
		t.equal(sum(agentSteps.map(step => step.metrics?.completion_tokens)), result.usage!.output_tokens);
		t.equal(sum(agentSteps.map(step => step.metrics?.cached_tokens)), result.usage!.cache_read_tokens);
		t.match(trajectory.final_metrics, {total_prompt_tokens: result.usage!.input_tokens, total_completion_tokens: result.usage!.output_tokens, total_cached_tokens: result.usage!.cache_read_tokens, total_cost_usd: null, total_steps: trajectory.steps.length});
		const calls = agentSteps.flatMap(step => step.tool_calls ?? []);
		const answered = agentSteps.flatMap(step => step.observation?.results ?? []);
		t.ok(answered.every(entry => calls.some(call => call.tool_call_id === entry.source_call_id)), `${result.task_id}: every result answers a call`);
		t.ok(calls.length >= answered.length && answered.length > 0 === calls.some(call => call.function_name !== 'done'), `${result.task_id}: every call but the finishing one has its result`);
	}
});

t.test('the schema refuses a trajectory with a wrong field', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'sales_report', policy: {concurrency: 1}});
	const {dir: evidence, report} = await attempt(plan, join(dir, 'run'));
	const valid = await trajectoryOf(t, evidence, report.tasks[0]!);
	t.ok(AtifTrajectory.safeParse(valid).success);
	const agentIndex = valid.steps.findIndex(step => step.source === 'agent');
	const broken: Array<[string, (copy: AtifTrajectory) => void, RegExp]> = [
		['an unknown field', copy => Object.assign(copy.steps[0]!, {role: 'system'}), /role/],
		['an older version', copy => Object.assign(copy, {schema_version: 'ATIF-v1.4'}), /schema_version/],
		['a token count as text', copy => Object.assign(copy.steps[agentIndex]!.metrics!, {prompt_tokens: '645'}), /prompt_tokens/],
		['a negative token count', copy => Object.assign(copy.final_metrics!, {total_completion_tokens: -1}), /total_completion_tokens/],
		['metrics on a user step', copy => Object.assign(copy.steps[1]!, {metrics: {prompt_tokens: 1}}), /agent steps only/],
		['a step id out of order', copy => Object.assign(copy.steps[2]!, {step_id: 7}), /ids run 1, 2, 3/],
		['a result of no call of its step', copy => Object.assign(copy.steps[agentIndex]!.observation!.results[0]!, {source_call_id: 'call_elsewhere'}), /no tool_call_id of this step/],
		['no agent version', copy => Object.assign(copy.agent, {version: undefined}), /version/],
		['a timestamp that is no date', copy => Object.assign(copy.steps[0]!, {timestamp: 'yesterday'}), /timestamp/],
	];
	for (const [what, spoil, expected] of broken) {
		const copy = structuredClone(valid);
		spoil(copy);
		const checked = AtifTrajectory.safeParse(copy);
		t.notOk(checked.success, `${what} is refused`);
		t.match(checked.error?.issues.map(issue => `${issue.path.join('.')}: ${issue.message}`).join('; '), expected, `${what}: the issue names it`);
	}
});

/** An OpenAI-compatible endpoint that answers every request with a `done` call and reports no usage. */
async function silentProvider(t: Test): Promise<string> {
	const server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(200, {'content-type': 'application/json'});
			response.end(JSON.stringify({id: 'x', object: 'chat.completion', created: 0, model: 'quiet-model', choices: [{index: 0, finish_reason: 'tool_calls', message: {role: 'assistant', content: null, tool_calls: [{id: 'call_1', type: 'function', function: {name: 'done', arguments: '{"summary":"ok"}'}}]}}]}));
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

t.test('usage a provider did not report is null in the trajectory, never 0', async t => {
	const dir = await scratch(t);
	await mkdir(join(dir, 'workspace'));
	const outcome = await runAgent({
		task: {id: 'quiet', prompt: 'finish'}, workspace: join(dir, 'workspace'), stateDir: join(dir, 'state'), plugins: [],
		provider: {base_url: await silentProvider(t), model: 'quiet-model', api_key_env: null},
	});
	t.equal(outcome.status, 'done');
	t.equal(outcome.usage.input_tokens, null, 'the engine metered nothing');
	t.equal(writeTaskTrajectory(join(dir, 'state'), 'attempt/001-quiet', outcome.usage), 'trajectory.json');
	const trajectory = AtifTrajectory.parse(JSON.parse(await readFile(join(dir, 'state', 'trajectory.json'), 'utf8')));
	const step = trajectory.steps.find(entry => entry.source === 'agent')!;
	t.match(step.metrics, {prompt_tokens: null, completion_tokens: null, cached_tokens: null, cost_usd: null});
	t.match(trajectory.final_metrics, {total_prompt_tokens: null, total_completion_tokens: null, total_cached_tokens: null, total_cost_usd: null, total_steps: 3});
	t.equal(step.model_name, 'quiet-model');
});

t.test('hlab export atif writes the trajectories an older attempt lacks, the same as the attempt writes them', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,sales_report', policy: {concurrency: 1}});
	const {dir: evidence, report} = await attempt(plan, join(dir, 'run'));
	const paths = report.tasks.map(result => join(evidence, result.evidence.trajectory!));
	const written = await Promise.all(paths.map(path => readFile(path, 'utf8')));
	// Evidence from before the format: no trajectory beside the records.
	await Promise.all(paths.map(path => rm(path)));
	const run = await hlab(['export', 'atif', evidence]);
	t.equal(run.record.exit_code, 0, run.stderr);
	t.equal(run.stdout, '2 trajectories written, 0 kept as they were, 0 tasks without messages\n');
	t.same(await Promise.all(paths.map(path => readFile(path, 'utf8'))), written, 'byte for byte what the attempt wrote');
	const again = await hlab(['export', 'atif', evidence]);
	t.equal(again.stdout, '0 trajectories written, 2 kept as they were, 0 tasks without messages\n', 'a sealed trajectory is never rewritten');
	const none = await hlab(['export', 'atif', dir]);
	t.equal(none.record.exit_code, 2);
	t.match(none.stderr, /^hlab: .* has no recorded task \(no ledger\.jsonl records\): it is no attempt's evidence directory\n$/);
});

t.test('any records a run can leave make a valid trajectory: empty ids and names, results of no call, a time that is no time', async t => {
	const dir = await scratch(t);
	const lines = [
		{role: 'user', content: 'go'},
		{role: 'assistant', content: null, tool_calls: [{id: '', name: '', arguments: '[1,2]'}, {id: '__proto__', name: 'shell', arguments: 'not json'}]},
		{role: 'tool', content: 'answers the empty id', tool_call_id: ''},
		{role: 'tool', content: 'answers __proto__', tool_call_id: '__proto__'},
		{role: 'tool', content: 'answers nothing', tool_call_id: 'call_missing'},
		{role: 'assistant', content: 'done'},
	];
	const engineLine = JSON.stringify({seq: 0, type: 'message', at: 'not a time', message: {role: 'system', content: 'be brief', step_index: null}});
	await mkdir(join(dir, 'task'));
	const messages = [engineLine, ...lines.map(line => JSON.stringify(line)), '{torn'].join('\n');
	t.equal(writeTaskTrajectory(join(dir, 'task'), 'a/001-x', null, messages, null), 'trajectory.json');
	const trajectory = AtifTrajectory.parse(JSON.parse(await readFile(join(dir, 'task', 'trajectory.json'), 'utf8')));
	t.same(trajectory.steps.map(step => step.source), ['system', 'user', 'agent', 'system', 'system', 'agent'], 'a result of no call is a step of its own');
	t.equal(trajectory.steps[0]!.timestamp, undefined, 'the time that is no time is left out');
	t.match(trajectory.steps[2]!.tool_calls, [{tool_call_id: 'call_hlab_3_0', function_name: 'unknown', arguments: {raw: '[1,2]'}}, {tool_call_id: '__proto__', function_name: 'shell', arguments: {raw: 'not json'}}]);
	t.same(trajectory.steps[2]!.observation, {results: [{source_call_id: '__proto__', content: 'answers __proto__'}]});
	t.equal(Object.getPrototypeOf({}).content, undefined, 'nothing reached the object prototype');
	t.match(trajectory.final_metrics, {total_prompt_tokens: null, total_steps: 6});
});
