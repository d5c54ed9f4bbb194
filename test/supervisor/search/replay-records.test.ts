import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {builtinAgent, type Harness} from '../../../harness/index.js';
import {SearchRootError} from '../../../supervisor/search/check-root.js';
import type {Planner} from '../../../supervisor/search/planner.js';
import type {SearchPolicy} from '../../../supervisor/search/policy-schema.js';
import {replaySearch, ReplayMismatchError} from '../../../supervisor/search/replay-search.js';
import {runSearch} from '../../../supervisor/search/run-search.js';
import {scriptedMutationProvider} from '../../../supervisor/search/scripted-mutation-provider.js';
import {scriptedSearchProvider} from '../../../supervisor/search/scripted-search-provider.js';
import {SearchReport} from '../../../supervisor/search/search-report.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {testPolicy} from './search-policy-fixture.js';

checkNoLeaks(t);

const suite = ['sales_report', 'json_config_migration'];
const root: Harness = {...builtinAgent, limits: {max_steps: 8, deadline_ms: 60_000}};
const planner = (policy: SearchPolicy): Planner => ({search: scriptedSearchProvider(), mutation: scriptedMutationProvider(), policy});

function twoRounds(): SearchPolicy {
	const policy = testPolicy();
	policy.envelope.max_rounds = 2;
	return policy;
}

const reportIn = async (dir: string): Promise<SearchReport> => SearchReport.parse(JSON.parse(await readFile(join(dir, 'search-report.json'), 'utf8')));

t.test('replay checks every recorded field it can recompute, and each replicate against its evidence', async t => {
	const dir = join(await tempDir(t), 'search');
	const report = await runSearch({planner: planner(twoRounds()), root, rootName: 'builtin', seeds: [1, 2], dir, setup: {suite, provider: {kind: 'scripted', model: 'responsive'}}});
	t.equal(report.stop_reason, 'max-rounds');
	t.equal(await replaySearch(report, planner(report.policy), dir), 1, 'the search as recorded replays, evidence and all');
	// Each edit leaves the planning as it was: before these checks, every one replayed as "every choice is the same".
	const mismatches = async (edit: (copy: SearchReport) => void): Promise<string[]> => {
		const copy = JSON.parse(JSON.stringify(report)) as SearchReport;
		edit(copy);
		const error = await replaySearch(copy, planner(copy.policy), dir).then(() => null, (thrown: unknown) => thrown);
		return error instanceof ReplayMismatchError ? error.mismatches : [];
	};
	const has = async (what: string, edit: (copy: SearchReport) => void, pattern: RegExp) => {
		const found = await mismatches(edit);
		t.ok(found.some(line => pattern.test(line)), `${what}: ${found.join(' | ') || 'no mismatch'}`);
	};
	await has('a node\'s harness', copy => (copy.nodes[1]!.harness.limits.max_steps = 7), /^node node-001: its recorded harness gives the fingerprint sha256:\S+, not the recorded/);
	await has('a node\'s harness and fingerprint together', copy => {
		copy.nodes[0]!.harness = {...copy.nodes[0]!.harness, name: 'another'};
		copy.nodes[0]!.fingerprint = 'sha256:0';
	}, /^node node-000: its recorded harness gives/);
	await has('a child\'s parent', copy => (copy.nodes[1]!.parent_ids = []), /^node node-001: its parents are not its proposal's/);
	await has('a replicate\'s score', copy => (copy.rounds[0]!.replicates[0]!.feedback.score = 1), /^node-000 seed 1: feedback\.score is not what its attempt's report gives/);
	await has('a replicate\'s turns', copy => (copy.rounds[1]!.replicates[1]!.feedback.turns = 1), /^node-001 seed 2: feedback\.turns is not what its attempt's report gives/);
	await has('a replicate\'s passed count', copy => (copy.rounds[0]!.replicates[1]!.passed += 1), /^node-000 seed 2: passed is \d+, its attempt's report gives \d+/);
	await has('a replicate\'s plan digest', copy => (copy.rounds[0]!.replicates[0]!.plan_digest = 'sha256:0'), /^node-000 seed 1: plan_digest is sha256:0, its attempt ran sha256:/);
	await has('a replicate pointed at another one\'s evidence', copy => (copy.rounds[0]!.replicates[0]!.evidence = 'evaluations/node-000-seed-2'), /^node-000 seed 1: its evidence is recorded at evaluations\/node-000-seed-2, not evaluations\/node-000-seed-1/);
	await has('a comparison', copy => (copy.rounds[1]!.comparisons[1]!.difference = 99), /^round 2: the comparisons are not what the recorded replicates give \(node-001 vs node-000 on turns\)/);
	await has('a task attempt\'s charge', copy => {
		const entry = copy.rounds[0]!.spending.find(candidate => candidate.unit === 'task-attempt')!;
		entry.charged!.model_calls.agent = 1;
	}, /^node-000 seed 1: task-attempt node-000-seed-1 #1 sales_report is charged .*model_calls\.agent 1.*, its attempt's report measured/);
	await has('the spend', copy => (copy.spent.task_attempts = 1), /^spent: recorded .*task_attempts 1.*, the recorded units were charged .*task_attempts 8/);
	await has('the limits', copy => (copy.limits.rounds = 9), /^limits: not the policy's envelope/);
	await has('the stop reason', copy => (copy.stop_reason = 'no-proposal'), /^stop_reason: recorded no-proposal, but the records end in max-rounds/);
	await has('the stop detail', copy => (copy.stop_detail = '9 round(s) run'), /^stop_detail: recorded "9 round\(s\) run", the records give "2 round\(s\) run"/);

	// The evidence itself: an attempt's report edited to agree with an edited score still fails its seal.
	const attemptReport = join(dir, 'evaluations', 'node-000-seed-1', 'report.json');
	const attempt = JSON.parse(await readFile(attemptReport, 'utf8')) as {tasks: Array<{status: string}>};
	attempt.tasks.forEach(task => (task.status = 'passed'));
	await writeFile(attemptReport, JSON.stringify(attempt));
	await has('an attempt\'s report edited in its evidence', () => undefined, /^node-000 seed 1: its evidence does not verify \(/);

	// As a user replays it: the command names each mismatch and exits 1.
	const edited = JSON.parse(JSON.stringify(report)) as SearchReport;
	edited.stop_reason = 'no-proposal';
	await writeFile(join(dir, 'search-report.json'), JSON.stringify(edited));
	const replay = await hlab(['search', 'replay', dir]);
	t.equal(replay.record.exit_code, 1, replay.stderr);
	t.match(replay.stdout, /mismatch: stop_reason: recorded no-proposal/);
	t.match(replay.stdout, /mismatch: node-000 seed 1: its evidence does not verify/);
	t.notMatch(replay.stdout, /every choice/);
	t.same((await reportIn(dir)).stop_reason, 'no-proposal');
});

t.test('a root over the policy\'s ceilings is refused before anything runs or is written', async t => {
	const dir = join(await tempDir(t), 'search');
	const policy = testPolicy();
	const tall: Harness = {...root, limits: {max_steps: policy.ceilings.max_steps + 1, deadline_ms: 60_000}};
	const error = await runSearch({planner: planner(policy), root: tall, rootName: 'tall', seeds: [1], dir, setup: {suite, provider: {kind: 'scripted', model: 'responsive'}}}).then(() => null, (thrown: unknown) => thrown);
	t.ok(error instanceof SearchRootError, String(error));
	t.match((error as Error).message, /^the root harness is over the policy's ceilings: max_steps is 61, above the ceiling of 60$/);
	t.notOk(existsSync(dir), 'nothing was written');
});

t.test('authorized_tools naming a tool that does not exist is refused by name, on one line with exit 2', async t => {
	const work = await tempDir(t);
	const policy = testPolicy();
	policy.authorized_tools = [...policy.authorized_tools, 'teleport'];
	await writeFile(join(work, 'policy.json'), JSON.stringify(policy));
	const out = join(work, 'search');
	const run = await hlab(['search', 'run', '--policy', join(work, 'policy.json'), '--suite', 'sales_report', '--seeds', '1', '--out', out]);
	t.equal(run.record.exit_code, 2, run.stderr);
	t.match(run.stderr, /^hlab: authorized_tools names a tool the root harness does not have: teleport \(it has [a-z_, ]+\)\n$/);
	t.notOk(existsSync(out), 'nothing ran');
});
