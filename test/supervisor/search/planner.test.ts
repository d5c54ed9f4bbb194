import t from 'tap';
import {builtinAgent, fingerprintHarness, type Harness} from '../../../harness/index.js';
import {plan, type Planner} from '../../../supervisor/search/planner.js';
import {ProviderContractError, type MutationProvider, type SearchProvider} from '../../../supervisor/search/providers.js';
import {scriptedMutationProvider} from '../../../supervisor/search/scripted-mutation-provider.js';
import {scriptedSearchProvider} from '../../../supervisor/search/scripted-search-provider.js';
import type {SearchContext} from '../../../supervisor/search/search-record.js';
import {emptySpend} from '../../../supervisor/search/spend.js';
import {testPolicy} from './search-policy-fixture.js';

const root: Harness = {...builtinAgent, limits: {max_steps: 8, deadline_ms: 60_000}};
const harnesses = new Map([['node-000', root]]);

function contextOf(over: Partial<SearchContext> = {}): SearchContext {
	return {
		round: 1,
		nodes: [{node_id: 'node-000', fingerprint: fingerprintHarness(root).digest, parent_ids: [], status: 'evaluated', feedback: [{seed: 1, tasks: 2, score: 0.5, turns: 9, executions: []}]}],
		comparisons: [], exhausted: [], history: [], spent: emptySpend(), limits: emptySpend(),
		...over,
	};
}

const planner = (over: Partial<Planner> = {}): Planner => ({search: scriptedSearchProvider(), mutation: scriptedMutationProvider(), policy: testPolicy(), ...over});

t.test('a plan chooses a base, asks for a patch, and returns the verified proposal', async t => {
	const outcome = await plan(planner(), contextOf(), harnesses);
	t.same(outcome.choice, {kind: 'base', node_id: 'node-000', rationale: 'node-000 has the best mean score (0.500)'});
	t.equal(outcome.requests.length, 1);
	t.same(outcome.requests[0]!.base, fingerprintHarness(root));
	t.same(outcome.refusals, []);
	t.equal(outcome.proposal!.parent_id, 'node-000');
	t.match(outcome.proposal!.harness.tools.find(tool => tool.name === 'list_files')!.description, /at most once/);
	t.equal(outcome.reason, 'proposed, verified and new');
	t.same(await plan(planner(), contextOf(), harnesses), outcome, 'the same context gives the same plan');
});

t.test('a refused patch is recorded with every reason and the provider asked again, within max_retries', async t => {
	const policy = testPolicy();
	policy.ceilings.max_steps = 10;
	// The first idea is not allowed, so the provider skips it; the second (8 + 4 steps) is over the ceiling of 10.
	policy.allowed_operations = ['set_stopping_limits', 'set_system_instructions'];
	const outcome = await plan(planner({policy}), contextOf(), harnesses);
	t.equal(outcome.refusals.length, 1);
	t.same(outcome.refusals[0]!.operations, ['set_stopping_limits']);
	t.match(outcome.refusals[0]!.reasons.join('\n'), /over-ceiling: max_steps is 12, above the ceiling of 10/);
	t.same(outcome.requests[1]!.refused, [outcome.refusals[0]!.patch_fingerprint], 'the next request says what was refused');
	t.same(outcome.proposal!.patch.operations.map(operation => operation.op), ['set_system_instructions']);
	policy.max_retries = 0;
	const bounded = await plan(planner({policy}), contextOf(), harnesses);
	t.equal(bounded.proposal, null);
	t.equal(bounded.requests.length, 1);
	t.equal(bounded.reason, 'every patch was refused within 0 retries');
});

t.test('a mutation provider with nothing more exhausts the base; with every node exhausted the search provider chooses nothing', async t => {
	const policy = testPolicy();
	policy.allowed_operations = ['set_context_policy'];
	const outcome = await plan(planner({policy}), contextOf(), harnesses);
	t.equal(outcome.exhausted, 'node-000');
	t.equal(outcome.reason, 'the mutation provider has nothing more for node-000');
	const none = await plan(planner({policy}), contextOf({exhausted: ['node-000']}), harnesses);
	t.same(none.choice, {kind: 'none', reason: 'no evaluated node is left that is not exhausted'});
	t.equal(none.proposal, null);
});

t.test('a provider that breaks its contract is a ProviderContractError', async t => {
	const choosing = (nodeId: string): SearchProvider => ({binding: {kind: 'test', version: 1, config: {}}, callsModel: false, select: async () => ({kind: 'base', node_id: nodeId, rationale: 'test'})});
	await t.rejects(plan(planner({search: choosing('node-000')}), contextOf({exhausted: ['node-000']}), harnesses), new ProviderContractError('the search provider chose node-000, which the context lists as exhausted'));
	await t.rejects(plan(planner({search: choosing('node-009')}), contextOf(), harnesses), new ProviderContractError('the search provider chose node-009, a node the context does not have'));
	const junk: MutationProvider = {...scriptedMutationProvider(), mutate: async () => ({operations: 'all of them'}) as never};
	const error = await plan(planner({mutation: junk}), contextOf(), harnesses).catch((thrown: unknown) => thrown);
	t.ok(error instanceof ProviderContractError);
	t.match((error as Error).message, /the mutation provider returned something that is not one harness patch/);
});

t.test('a proposal the search already has is a duplicate, refused', async t => {
	const first = await plan(planner(), contextOf(), harnesses);
	const known = {node_id: 'node-001', fingerprint: first.proposal!.fingerprint.digest, parent_ids: ['node-000'], status: 'pending' as const, feedback: []};
	// The scripted provider skips ideas that give a known harness, so this provider insists on the first one.
	const insisting: MutationProvider = {...scriptedMutationProvider(), mutate: async () => first.proposal!.patch};
	const outcome = await plan(planner({mutation: insisting}), contextOf({nodes: [...contextOf().nodes, known]}), harnesses);
	t.equal(outcome.proposal, null);
	t.match(outcome.refusals[0]!.reasons.join('\n'), /duplicate: the search already has this harness/);
});
