import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {builtinAgent, fingerprintHarness, type Harness} from '../../../harness/index.js';
import {providersFor} from '../../../supervisor/search/bound-providers.js';
import {envelopeLimits} from '../../../supervisor/search/envelope.js';
import {ledgerGate} from '../../../supervisor/search/ledger-gate.js';
import {modelMutationProvider} from '../../../supervisor/search/model-mutation-provider.js';
import {modelSearchProvider} from '../../../supervisor/search/model-search-provider.js';
import {plan, type Planner} from '../../../supervisor/search/planner.js';
import type {SearchPolicy} from '../../../supervisor/search/policy-schema.js';
import {ProviderContractError} from '../../../supervisor/search/providers.js';
import {replaySearch, ReplayMismatchError} from '../../../supervisor/search/replay-search.js';
import {runSearch} from '../../../supervisor/search/run-search.js';
import type {SearchContext} from '../../../supervisor/search/search-record.js';
import {emptySpend} from '../../../supervisor/search/spend.js';
import {SpendingLedger} from '../../../supervisor/search/spending-ledger.js';
import {SpendingExceededError, SpendingLimitStop} from '../../../supervisor/search/stop-errors.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {testPolicy} from './search-policy-fixture.js';

checkNoLeaks(t);

interface Reply {
	content: string;
	tokens: number | null;
}

/** An OpenAI-compatible endpoint on loopback that answers the search and mutation prompts from two queues, and keeps every request body. */
async function endpoint(t: Test, replies: {search: Reply[]; mutation: Reply[]}): Promise<{url: string; bodies: Array<{messages: Array<{role: string; content: string}>}>}> {
	const bodies: Array<{messages: Array<{role: string; content: string}>}> = [];
	const server: Server = createServer((request, response) => {
		let text = '';
		request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
		request.on('end', () => {
			const body = JSON.parse(text) as {model: string; messages: Array<{role: string; content: string}>};
			bodies.push(body);
			const queue = body.messages[0]!.content.includes('steer a search') ? replies.search : replies.mutation;
			const reply = queue.shift() ?? {content: '{"none": "nothing left"}', tokens: 10};
			const usage = reply.tokens === null ? undefined : {prompt_tokens: reply.tokens - 5, completion_tokens: 5, total_tokens: reply.tokens};
			response.writeHead(200, {'content-type': 'application/json'});
			response.end(JSON.stringify({id: 'x', object: 'chat.completion', created: 0, model: body.model, choices: [{index: 0, finish_reason: 'stop', message: {role: 'assistant', content: reply.content}}], ...(usage === undefined ? {} : {usage})}));
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())));
	return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies};
}

const root: Harness = {...builtinAgent, limits: {max_steps: 8, deadline_ms: 60_000}};
const choose = (node = 'node-000'): Reply => ({content: `Here: {"node_id": "${node}", "rationale": "it is the only one"}`, tokens: 300});
const moreSteps: Reply = {content: '```json\n{"operations": [{"op": "set_stopping_limits", "max_steps": 12}], "rationale": "more steps"}\n```', tokens: 400};

function modelPolicy(change: (policy: SearchPolicy) => void = () => undefined): SearchPolicy {
	const policy = testPolicy();
	policy.envelope = {...policy.envelope, max_model_calls: {agent: 5000, provider: 10}, token_limits: {'tokens(agent)': 10_000_000, 'tokens(provider)': 100_000}, provider_call_tokens: 1000};
	change(policy);
	return policy;
}

const context: SearchContext = {
	round: 1,
	nodes: [{node_id: 'node-000', fingerprint: fingerprintHarness(root).digest, parent_ids: [], status: 'evaluated', feedback: [{seed: 1, tasks: 2, score: 0.5, turns: 9, executions: [{task_id: 'sales_report', turns: 4, total_tokens: 900, wall_ms: 100}]}]}],
	comparisons: [], exhausted: [], history: [], spent: emptySpend(), limits: emptySpend(),
};

async function planWith(t: Test, replies: {search: Reply[]; mutation: Reply[]}, policy = modelPolicy()) {
	const {url, bodies} = await endpoint(t, replies);
	const model = {base_url: url, model: 'test-model', api_key_env: null};
	const planner: Planner = {search: modelSearchProvider(model), mutation: modelMutationProvider(model), policy};
	const ledger = new SpendingLedger(envelopeLimits(policy.envelope));
	const outcome = plan(planner, context, new Map([['node-000', root]]), ledgerGate(ledger, policy));
	return {outcome, ledger, bodies};
}

t.test('a model-backed plan: the reply is parsed into a typed patch, and each call is a unit of spend', async t => {
	const {outcome, ledger, bodies} = await planWith(t, {search: [choose()], mutation: [moreSteps]});
	const planned = await outcome;
	t.same(planned.choice, {kind: 'base', node_id: 'node-000', rationale: 'it is the only one'});
	t.same(planned.proposal!.patch.operations, [{op: 'set_stopping_limits', max_steps: 12}]);
	t.equal(planned.proposal!.harness.limits.max_steps, 12);
	t.same(ledger.spent().model_calls, {provider: 2});
	t.same(ledger.spent().tokens, {'tokens(provider)': 700}, 'charged what the endpoint reported');
	t.equal(bodies.length, 2);
	const prompt = bodies[1]!.messages[1]!.content;
	t.match(prompt, /"turns":4/, 'per-task execution measurements reach the provider');
	t.notMatch(prompt, /"passed"|"grade"|"status":"passed"/, 'no task verdict does');
});

t.test('a reply without token counts keeps its whole reservation charged', async t => {
	const {outcome, ledger} = await planWith(t, {search: [{...choose(), tokens: null}], mutation: [moreSteps]});
	await outcome;
	t.same(ledger.spent().tokens, {'tokens(provider)': 1400});
	t.match(ledger.entries[0]!.note, /not measured, charged as reserved: tokens.tokens\(provider\)/);
});

t.test('an under-declared per-call bound is exceeded; a call that could cross a limit is never made', async t => {
	const exceeded = await planWith(t, {search: [{...choose(), tokens: 5000}], mutation: [moreSteps]});
	t.ok(await exceeded.outcome.catch((error: unknown) => error) instanceof SpendingExceededError);
	const limited = await planWith(t, {search: [choose()], mutation: [moreSteps]}, modelPolicy(policy => (policy.envelope.max_model_calls.provider = 1)));
	t.ok(await limited.outcome.catch((error: unknown) => error) instanceof SpendingLimitStop);
	t.equal(limited.bodies.length, 1, 'the mutation call was not made');
});

t.test('a reply that is not a patch breaks the contract, and its text is not repeated', async t => {
	const {outcome} = await planWith(t, {search: [choose()], mutation: [{content: 'I would add a grep tool, secretly', tokens: 50}]});
	const error = await outcome.catch((thrown: unknown) => thrown);
	t.ok(error instanceof ProviderContractError);
	t.notMatch((error as Error).message, /secretly/);
	const exhausted = await planWith(t, {search: [choose('node-000')], mutation: []});
	t.equal((await exhausted.outcome).exhausted, 'node-000', 'a reply of none exhausts the base');
});

t.test('a model-backed search is recorded so that its planning replays without calling the model', async t => {
	const {url, bodies} = await endpoint(t, {search: [choose()], mutation: [moreSteps]});
	const model = {base_url: url, model: 'test-model', api_key_env: null};
	const policy = modelPolicy(policy => (policy.envelope.max_rounds = 2));
	const dir = join(await tempDir(t), 'search');
	const report = await runSearch({planner: {search: modelSearchProvider(model), mutation: modelMutationProvider(model), policy}, root, rootName: 'builtin', seeds: [1], dir, setup: {suite: ['sales_report', 'json_config_migration'], provider: {kind: 'scripted', model: 'responsive'}}});
	t.equal(report.stop_reason, 'max-rounds');
	t.equal(report.spent.model_calls.provider, 2);
	t.equal(report.nodes[1]!.harness.limits.max_steps, 12);
	const calls = bodies.length;
	t.equal(await replaySearch(report, {...providersFor(report), policy: report.policy}), 1);
	t.equal(bodies.length, calls, 'replay called no model');
	const edited = structuredClone(report);
	edited.rounds[0]!.plans[0]!.outcome.responses[0] = {...edited.rounds[0]!.plans[0]!.outcome.responses[0]!, rationale: 'edited'};
	const error = await replaySearch(edited, {...providersFor(edited), policy: edited.policy}).catch((thrown: unknown) => thrown);
	t.ok(error instanceof ReplayMismatchError);
	t.same((error as ReplayMismatchError).mismatches, ['round 1 plan 1: a different outcome (proposal)'], 'the recorded response gives another proposal than the one recorded');
});
