import t from 'tap';
import {activatePlugin, type LoadedPlugin} from '../../engine/index.js';
import type {ReferenceScript} from '../../tasks/index.js';
import type {AgentRequestTransformInput, AgentStepPolicyInput, AgentStepPolicyOutput, CapabilityErrorPolicy, ChatMessage} from '../../sdk/plugin.js';
import {runScripted, scriptedServer} from './engine-run.js';

/** A task that lists the workspace `times` times, then finishes. */
function listing(times: number): ReferenceScript {
	return function* () {
		for (let index = 0; index < times; index += 1) yield {tool: 'list_files', args: {path: '.'}};
		return 'listed';
	};
}
const task = {id: 'policy-test', prompt: 'List the files five times.', reference: listing(5)};
const server = await scriptedServer(t, [task]);

interface PolicySpec {
	priority?: number;
	on_error?: CapabilityErrorPolicy;
	decide?: (input: AgentStepPolicyInput) => AgentStepPolicyOutput | Promise<AgentStepPolicyOutput>;
	transform?: (input: AgentRequestTransformInput) => {messages?: ChatMessage[]};
}

/** A plugin object activated through the same path as a candidate's default export. */
function plugin(id: string, spec: PolicySpec): Promise<LoadedPlugin> {
	const capabilities = [
		...(spec.decide ? [{id: 'agent.step.policy', kind: 'decision', version: 1, priority: spec.priority, on_error: spec.on_error}] : []),
		...(spec.transform ? [{id: 'agent.request.transform', kind: 'transform', version: 1, priority: spec.priority, on_error: spec.on_error}] : []),
	];
	return activatePlugin({
		initialize: () => ({protocol_version: 1, id, capabilities}),
		invokeCapability: async ({capability, input}: {capability: string; input: unknown}) => ({
			output: capability === 'agent.step.policy' ? await spec.decide!(input as AgentStepPolicyInput) : spec.transform!(input as AgentRequestTransformInput),
		}),
	}, {defaultId: id, origin: {kind: 'inline'}});
}

const go: AgentStepPolicyOutput = {stop: false};

t.test('policies run by descending priority, then plugin id', async t => {
	const order: string[] = [];
	const logging = (id: string, priority: number) => plugin(id, {priority, decide: () => (order.push(id), go)});
	const plugins = await Promise.all([logging('c', 0), logging('b', 5), logging('d', 10), logging('a', 5), logging('B', 5)]);
	const run = await runScripted(t, server, task, {plugins, maxSteps: 1});
	t.same(order, ['d', 'B', 'a', 'b', 'c']);
	t.same(run.journal.filter(record => record.type === 'policy').map(record => record.plugin), order, 'and are journaled in that order');
});

t.test('the first stop short-circuits later policies and the request transforms', async t => {
	const later: number[] = [];
	const transformed: number[] = [];
	const plugins = await Promise.all([
		plugin('stopper', {priority: 5, decide: input => (input.step_index === 2 ? {stop: true, reason: 'enough', content: 'Two listings are enough.'} : go)}),
		plugin('later', {priority: 1, decide: input => (later.push(input.step_index), go)}),
		plugin('rewriter', {transform: input => (transformed.push(input.step_index), {})}),
	]);
	const run = await runScripted(t, server, task, {plugins});
	t.same(later, [0, 1], 'the lower-priority policy is not asked at the stopping step');
	t.same(transformed, [0, 1], 'nor is any request transform');
	t.equal(run.journal.filter(record => record.type === 'request').length, 2, 'no request is sent after the stop');
});

t.test('a stop becomes a visible assistant record with the plugin\'s provenance, and is not a turn', async t => {
	const plugins = [await plugin('budget', {decide: input => (input.step_index >= 3 ? {stop: true, reason: 'local_budget', content: 'Stopped at the local budget; the work may be incomplete.'} : go)})];
	const run = await runScripted(t, server, task, {plugins});
	const {outcome} = run;
	t.equal(outcome.status, 'policy_stop');
	t.same(outcome.stopped_by, {plugin: 'budget', reason: 'local_budget'});
	t.equal(outcome.final_text, 'Stopped at the local budget; the work may be incomplete.');
	t.same(run.messages.at(-1), {
		index: run.messages.length - 1,
		role: 'assistant',
		content: 'Stopped at the local budget; the work may be incomplete.',
		step_index: 3,
		provenance: {plugin: 'budget', capability: 'agent.step.policy', reason: 'local_budget'},
	});
	t.equal(outcome.usage.turns, 3, 'three model turns: the stop record is not one');
	t.equal(outcome.steps, 3);
	t.equal(run.journal.filter(record => record.type === 'response').length, 3);
});

t.test('policies are not invoked once the step budget is exhausted', async t => {
	const asked: number[] = [];
	const plugins = [await plugin('watcher', {decide: input => {
		asked.push(input.step_index);
		return input.step_index >= 3 ? {stop: true, reason: 'late', content: 'This stop must never be seen.'} : go;
	}})];
	const run = await runScripted(t, server, task, {plugins, maxSteps: 3});
	t.same(asked, [0, 1, 2]);
	t.same([run.outcome.status, run.outcome.reason, run.outcome.stopped_by], ['unfinished', 'unfinished', null]);
});

t.test('policies see a frozen transcript view with the usage so far', async t => {
	const attempts: string[] = [];
	let seen: AgentStepPolicyInput | null = null;
	const plugins = [await plugin('meddler', {decide: input => {
		seen = input;
		for (const [name, mutate] of [
			['push', () => (input.transcript as unknown as unknown[]).push({})],
			['edit', () => ((input.transcript[1] as {content: string | null}).content = 'changed')],
			['step', () => ((input as {step_index: number}).step_index = 99)],
		] as const) {
			try {
				mutate();
				attempts.push(`${name}: allowed`);
			} catch (error) {
				attempts.push(`${name}: ${(error as Error).name}`);
			}
		}
		return go;
	}})];
	const run = await runScripted(t, server, task, {plugins, maxSteps: 2});
	t.same(attempts, ['push: TypeError', 'edit: TypeError', 'step: TypeError', 'push: TypeError', 'edit: TypeError', 'step: TypeError']);
	const last = seen! as AgentStepPolicyInput;
	t.equal(last.step_index, 1);
	t.equal(last.transcript.length, 4, 'system, task, one assistant turn, one tool result');
	t.equal(last.usage.turns, 1);
	t.equal(run.messages[1]!.content, task.prompt, 'the recorded transcript is unchanged');
});

t.test('a stop needs a non-empty reason and content; otherwise the error policy applies', async t => {
	const empty = (): AgentStepPolicyOutput => ({stop: true, reason: ' ', content: ''});
	const failing = await runScripted(t, server, task, {plugins: [await plugin('sloppy', {decide: empty})]});
	t.same([failing.outcome.status, failing.outcome.reason], ['failed', 'crash'], 'the default error policy fails the execution');
	t.match(failing.outcome.message, /plugin sloppy \(agent\.step\.policy\) answered invalid output/);
	const ignored = await runScripted(t, server, task, {plugins: [await plugin('sloppy', {decide: empty, on_error: 'continue'})]});
	t.equal(ignored.outcome.status, 'done', 'continue ignores the plugin');
	const stopped = await runScripted(t, server, task, {plugins: [await plugin('sloppy', {decide: empty, on_error: 'stop'})]});
	t.same([stopped.outcome.status, stopped.outcome.stopped_by], ['policy_stop', {plugin: 'sloppy', reason: 'plugin_error'}], 'stop ends the loop with a host-written record');
	t.same(stopped.messages.at(-1)!.provenance, {plugin: 'sloppy', capability: 'agent.step.policy', reason: 'plugin_error'});
});

t.test('a policy that throws follows its error policy', async t => {
	const boom = (): never => {
		throw new Error('boom');
	};
	const failing = await runScripted(t, server, task, {plugins: [await plugin('thrower', {decide: boom})]});
	t.same([failing.outcome.status, failing.outcome.reason], ['failed', 'crash']);
	t.match(failing.outcome.message, /thrower.*threw: boom/);
	const ignored = await runScripted(t, server, task, {plugins: [await plugin('thrower', {decide: boom, on_error: 'continue'})]});
	t.equal(ignored.outcome.status, 'done');
	t.equal(ignored.journal.filter(record => record.type === 'plugin_error').length, 6, 'each failure is journaled');
});

t.test('cancellation propagates through a policy whatever its error policy', async t => {
	const hanging = (): Promise<AgentStepPolicyOutput> => new Promise(() => undefined);
	const controller = new AbortController();
	setTimeout(() => controller.abort(), 300);
	const cancelled = await runScripted(t, server, task, {plugins: [await plugin('hang', {decide: hanging, on_error: 'continue'})], signal: controller.signal});
	t.same([cancelled.outcome.status, cancelled.outcome.reason], ['failed', 'aborted']);
	const timedOut = await runScripted(t, server, task, {plugins: [await plugin('hang', {decide: hanging, on_error: 'continue'})], deadlineMs: 500});
	t.same([timedOut.outcome.status, timedOut.outcome.reason], ['failed', 'timeout']);
	const aware = await runScripted(t, server, task, {deadlineMs: 500, plugins: [await plugin('aware', {on_error: 'continue', decide: () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('gave up')), 700))})]});
	t.same([aware.outcome.status, aware.outcome.reason], ['failed', 'timeout'], 'a late rejection does not turn into continue');
});

t.test('request transforms compose in order when the step continues, without touching the transcript', async t => {
	const note = (text: string) => (input: AgentRequestTransformInput) => ({messages: [...input.messages, {role: 'user' as const, content: text}]});
	const plugins = await Promise.all([plugin('second', {priority: 1, transform: note('two')}), plugin('first', {priority: 2, transform: note('one')})]);
	const run = await runScripted(t, server, task, {plugins, maxSteps: 2});
	const requests = run.journal.filter(record => record.type === 'request');
	for (const request of requests) t.same(request.body.messages.slice(-2).map((message: ChatMessage) => message.content), ['one', 'two']);
	t.notOk(run.messages.some(message => message.content === 'one' || message.content === 'two'), 'the transcript keeps what really happened');
	t.same(run.journal.filter(record => record.type === 'transform').map(record => record.plugin), ['first', 'second', 'first', 'second']);
});
