import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {builtinAgent, fingerprintHarness, type Harness} from '../../../harness/index.js';
import {evaluateReplicate} from '../../../supervisor/search/evaluate-replicate.js';
import {SpendingUnenforceableError} from '../../../supervisor/search/envelope.js';
import type {Planner} from '../../../supervisor/search/planner.js';
import type {SearchPolicy} from '../../../supervisor/search/policy-schema.js';
import type {SearchProvider} from '../../../supervisor/search/providers.js';
import {replaySearch, ReplayMismatchError} from '../../../supervisor/search/replay-search.js';
import {runSearch, type SearchOptions} from '../../../supervisor/search/run-search.js';
import {scriptedMutationProvider} from '../../../supervisor/search/scripted-mutation-provider.js';
import {scriptedSearchProvider} from '../../../supervisor/search/scripted-search-provider.js';
import {SearchReport} from '../../../supervisor/search/search-report.js';
import {RunRefusedError, SpendingExceededError} from '../../../supervisor/search/stop-errors.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {testPolicy} from './search-policy-fixture.js';

checkNoLeaks(t);

/** Two quick built-in tasks: a suite of more than one, so its score may reach a provider. */
const suite = ['sales_report', 'json_config_migration'];
const root: Harness = {...builtinAgent, limits: {max_steps: 8, deadline_ms: 60_000}};

function policyWith(change: (policy: SearchPolicy) => void = () => undefined): SearchPolicy {
	const policy = testPolicy();
	policy.envelope.max_rounds = 2;
	change(policy);
	return policy;
}

async function search(t: Test, policy: SearchPolicy, over: Partial<SearchOptions> = {}): Promise<{dir: string; run: Promise<SearchReport>}> {
	const dir = join(await tempDir(t), 'search');
	const planner: Planner = {search: scriptedSearchProvider(), mutation: scriptedMutationProvider(), policy};
	const run = runSearch({planner, root, rootName: 'builtin', seeds: [1], dir, setup: {suite, provider: {kind: 'scripted', model: 'responsive'}}, ...over});
	return {dir, run};
}

/** The report on disk, checked against its schema: complete whatever ended the search. */
async function reportIn(dir: string): Promise<SearchReport> {
	return SearchReport.parse(JSON.parse(await readFile(join(dir, 'search-report.json'), 'utf8')));
}

/** The report on disk replays against its evidence: every recorded field agrees, whatever stopped the search. */
async function replaysWithEvidence(t: Test, dir: string): Promise<void> {
	const report = await reportIn(dir);
	const error = await replaySearch(report, {search: scriptedSearchProvider(), mutation: scriptedMutationProvider(), policy: report.policy}, dir).then(() => null, (thrown: unknown) => thrown);
	t.same(error instanceof ReplayMismatchError ? error.mismatches : error, null, `a search stopped by ${report.stop_reason} replays with its evidence`);
}

/** Every key of every object in a value. */
function keysOf(value: unknown): Set<string> {
	const keys = new Set<string>();
	const walk = (inner: unknown): void => {
		if (Array.isArray(inner)) inner.forEach(walk);
		else if (inner !== null && typeof inner === 'object') for (const [key, child] of Object.entries(inner)) keys.add(key), walk(child);
	};
	walk(value);
	return keys;
}

t.test('max-rounds: replicates are real attempts with their own evidence, and the planning replays', async t => {
	const {dir, run} = await search(t, policyWith(), {seeds: [1, 2]});
	const report = await run;
	t.same(await reportIn(dir), report);
	t.equal(report.stop_reason, 'max-rounds');
	t.equal(report.rounds.length, 2);
	t.equal(report.spent.candidate_evaluations, 4, 'two candidates on two seeds are four evaluations');
	t.equal(report.spent.task_attempts, 8);
	t.equal(report.rounds[1]!.comparisons.length, 2, 'the second node is compared with the root on score and turns');
	for (const [index, round] of report.rounds.entries()) {
		const node = report.nodes[index]!;
		t.equal(round.node_id, node.node_id);
		for (const replicate of round.replicates) {
			const attempt = JSON.parse(await readFile(join(dir, replicate.evidence, 'attempt.json'), 'utf8')) as {harness: unknown};
			t.same(attempt.harness, fingerprintHarness(node.harness), `${replicate.evidence} ran the node's harness`);
			t.ok(existsSync(join(dir, replicate.evidence, 'report.json')));
		}
	}
	t.not(report.nodes[1]!.fingerprint, report.nodes[0]!.fingerprint);
	t.equal(report.rounds[0]!.plans.length, 1);
	t.equal(report.rounds[1]!.plans.length, 0, 'the last round plans nothing it could not evaluate');
	const seen = keysOf(report.rounds.flatMap(round => round.plans));
	for (const secret of ['passed', 'grade', 'message', 'status_of_task']) t.notOk(seen.has(secret), `no ${secret} reaches a provider`);
	t.same([...keysOf(report.rounds[0]!.plans[0]!.context.nodes[0]!.feedback[0]!.executions)].sort(), ['task_id', 'total_tokens', 'turns', 'wall_ms']);

	const planner = (policy = report.policy): Planner => ({search: scriptedSearchProvider(), mutation: scriptedMutationProvider(), policy});
	t.equal(await replaySearch(report, planner()), 1);
	const mismatches = async (edit: (copy: SearchReport) => void, policy?: SearchPolicy): Promise<string[]> => {
		const copy = structuredClone(report);
		edit(copy);
		const error = await replaySearch(copy, planner(policy ?? copy.policy)).then(() => null, (thrown: unknown) => thrown);
		return error instanceof ReplayMismatchError ? error.mismatches : [];
	};
	t.same(await mismatches(copy => (copy.rounds[0]!.plans[0]!.outcome.choice = {kind: 'base', node_id: 'node-000', rationale: 'edited'})), ['round 1 plan 1: a different outcome (choice)']);
	t.same(await mismatches(copy => (copy.rounds[0]!.plans[0]!.context.exhausted = ['node-000'])), ['round 1 plan 1: the context changed']);
	t.same(await mismatches(copy => (copy.policy.max_retries = 5)), ['the policy is not the recorded policy']);
	t.same(await mismatches(copy => (copy.mutation.version = 2)), ['the mutation provider is not bound as recorded']);
	// The report file itself: edit one recorded choice and replay what is on disk.
	const onDisk = await reportIn(dir);
	onDisk.rounds[0]!.plans[0]!.outcome.requests[0]!.attempt = 1;
	await writeFile(join(dir, 'search-report.json'), JSON.stringify(onDisk));
	await t.rejects(replaySearch(await reportIn(dir), planner()), new ReplayMismatchError(['round 1 plan 1: a different outcome (requests)']));
});

t.test('spending-limit: an evaluation that could cross the envelope never starts, and none of its tasks runs', async t => {
	const {dir, run} = await search(t, policyWith(policy => (policy.envelope.max_candidate_evaluations = 3)), {seeds: [1, 2]});
	const report = await run;
	t.equal(report.stop_reason, 'spending-limit');
	t.match(report.stop_detail, /evaluation node-001-seed-2 could cross the envelope: candidate_evaluations 4 > 3/);
	t.equal(report.spent.candidate_evaluations, 3);
	t.notOk(existsSync(join(dir, 'evaluations', 'node-001-seed-2')), 'no attempt was started for it');
	t.same(await reportIn(dir), report);
	await replaysWithEvidence(t, dir);
});

t.test('spending-exceeded: a declared per-call bound that is too small ends the search after the report is written', async t => {
	const {dir, run} = await search(t, policyWith(policy => (policy.envelope.agent_call_tokens = 10)));
	const error = await run.then(() => null, (thrown: unknown) => thrown);
	t.ok(error instanceof SpendingExceededError);
	const report = await reportIn(dir);
	t.equal(report.stop_reason, 'spending-exceeded');
	t.match(report.stop_detail, /tokens\.tokens\(agent\) \d+ > 80/);
	t.equal(report.rounds.length, 1);
	t.ok(report.spent.tokens['tokens(agent)']! > 160, 'the measured spend is charged, above what two tasks reserved');
	await replaysWithEvidence(t, dir);
});

t.test('no-proposal: nothing the providers can write is allowed', async t => {
	const {dir, run} = await search(t, policyWith(policy => (policy.allowed_operations = ['set_context_policy'])));
	const report = await run;
	t.equal(report.stop_reason, 'no-proposal');
	t.equal(report.rounds[0]!.plans.length, 2, 'the base is exhausted, then nothing is left to choose');
	t.equal(report.rounds[0]!.plans[0]!.outcome.exhausted, 'node-000');
	t.same(await reportIn(dir), report);
	await replaysWithEvidence(t, dir);
});

t.test('provider-error: a provider that raises is named by the error type, never its message', async t => {
	const raising: SearchProvider = {binding: {kind: 'raising', version: 1, config: {}}, callsModel: false, select: async () => {
		throw new TypeError('a secret the provider should not leak');
	}};
	const policy = policyWith();
	const {dir, run} = await search(t, policy, {planner: {search: raising, mutation: scriptedMutationProvider(), policy}});
	const error = await run.then(() => null, (thrown: unknown) => thrown);
	t.ok(error instanceof TypeError);
	const report = await reportIn(dir);
	t.equal(report.stop_reason, 'provider-error');
	t.equal(report.stop_detail, 'a provider raised TypeError while planning round 1');
	t.notMatch(JSON.stringify(report), /secret/);
});

t.test('run-refused: the runner\'s refusal ends the search and the interrupted units are charged in full', async t => {
	const {dir, run} = await search(t, policyWith(), {
		seeds: [1, 2],
		// The real replicate on seed 1, and the runner's refusal (as the search receives it) on seed 2, after reserving.
		evaluate: async (node, seed, setup, ledger, policy) => {
			if (seed === 1) return evaluateReplicate(node, seed, setup, ledger, policy);
			ledger.reserve('evaluation', `${node.node_id}-seed-${seed}`, {rounds: 0, candidate_evaluations: 1, task_attempts: 0, model_calls: {}, tokens: {}});
			throw new RunRefusedError('admission refused: the plan changed');
		},
	});
	t.ok(await run.then(() => null, (thrown: unknown) => thrown) instanceof RunRefusedError);
	const report = await reportIn(dir);
	t.equal(report.stop_reason, 'run-refused');
	t.equal(report.stop_detail, 'RunRefusedError during evaluation node-000-seed-2');
	t.equal(report.rounds[0]!.replicates.length, 1);
	t.equal(report.rounds[0]!.spending.at(-1)!.state, 'abandoned');
	t.equal(report.spent.candidate_evaluations, 2);
});

t.test('error: anything else ends the search naming the interrupted unit, charged in full', async t => {
	const {dir, run} = await search(t, policyWith(), {setup: {suite: ['no_such_task'], provider: {kind: 'scripted', model: 'responsive'}}});
	const error = await run.then(() => null, (thrown: unknown) => thrown);
	t.ok(error instanceof Error);
	const report = await reportIn(dir);
	t.equal(report.stop_reason, 'error');
	t.equal(report.stop_detail, 'SelectionError during evaluation node-000-seed-1');
	t.same(report.rounds[0]!.spending.map(entry => entry.state), ['settled', 'abandoned', 'abandoned']);
	t.same(report.spent.model_calls, {agent: 8}, 'the task attempt that never ran is charged its whole reservation');
});

t.test('spending-unenforceable: refused before anything runs or is written', async t => {
	const {dir, run} = await search(t, policyWith(policy => (policy.envelope.max_cost_usd = 10)));
	const error = await run.then(() => null, (thrown: unknown) => thrown);
	t.ok(error instanceof SpendingUnenforceableError);
	t.notOk(existsSync(dir));
});
