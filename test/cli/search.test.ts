import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {testPolicy} from '../supervisor/search/search-policy-fixture.js';

checkNoLeaks(t);

async function policyFile(dir: string, value: unknown): Promise<string> {
	const path = join(dir, `policy-${Math.random().toString(36).slice(2)}.json`);
	await writeFile(path, JSON.stringify(value));
	return path;
}

t.test('a policy that does not authorize the search is bad input, and nothing is written', async t => {
	const dir = await tempDir(t);
	const {autonomous_search: _absent, ...unauthorized} = testPolicy();
	const out = join(dir, 'out');
	const run = await hlab(['search', 'run', '--policy', await policyFile(dir, unauthorized), '--out', out]);
	t.equal(run.record.exit_code, 2);
	t.match(run.stderr, /autonomous_search must be "authorized" \(it is absent\)/);
	t.notOk(existsSync(out));
});

t.test('an unenforceable envelope is refused with every reason before anything runs', async t => {
	const dir = await tempDir(t);
	const policy = testPolicy();
	policy.envelope = {...policy.envelope, max_cost_usd: 3, token_limits: {}};
	const out = join(dir, 'out');
	const run = await hlab(['search', 'run', '--policy', await policyFile(dir, policy), '--out', out]);
	t.equal(run.record.exit_code, 2);
	t.match(run.stderr, /spending-unenforceable: a money limit cannot be enforced: money is not metered; tokens\(agent\) has no limit/);
	t.notOk(existsSync(out));
});

t.test('bad flags and a missing report are bad input', async t => {
	const dir = await tempDir(t);
	const policy = await policyFile(dir, testPolicy());
	t.match((await hlab(['search', 'run', '--policy', policy, '--suite', 'nope', '--out', join(dir, 'a')])).stderr, /--suite: unknown task nope/);
	t.match((await hlab(['search', 'run', '--policy', policy, '--seeds', '0', '--out', join(dir, 'b')])).stderr, /--seeds 0 is not a whole number/);
	t.match((await hlab(['search', 'run', '--policy', policy, '--root', join(dir, 'none.json'), '--out', join(dir, 'c')])).stderr, /cannot read the root harness/);
	const replay = await hlab(['search', 'replay', join(dir, 'nothing')]);
	t.equal(replay.record.exit_code, 2);
	t.match(replay.stderr, /cannot read .*search-report\.json/);
});

t.test('hlab search run writes the report; replay passes, and names the round whose recorded choice was edited', async t => {
	const dir = await tempDir(t);
	const policy = testPolicy();
	policy.envelope.max_rounds = 2;
	const out = join(dir, 'search');
	const run = await hlab(['search', 'run', '--policy', await policyFile(dir, policy), '--suite', 'sales_report,json_config_migration', '--seeds', '1', '--out', out]);
	t.equal(run.record.exit_code, 0, run.stderr);
	t.match(run.stdout, /plan: chose node-000/);
	t.match(run.stdout, /stopped: max-rounds \(2 round\(s\) run\)/);
	// One running spend line per round, not one per unit; the last line names the winner and its margin.
	const lines = run.stdout.trim().split('\n');
	t.equal(lines.filter(line => /^ {2}spend /.test(line)).length, 0, 'no line per spending unit');
	t.same(lines.filter(line => /^ {2}spent in round /.test(line)).map(line => /round (\d)/.exec(line)![1]), ['1', '2']);
	t.match(lines.at(-3), /^stopped: /);
	t.match(lines.at(-2), /^spent: rounds 2, /);
	t.match(lines.at(-1), /^winner: node-00\d \(mean score [\d.]+, mean turns [\d.]+ over 1 replicate\); margin over node-00\d: score [-+]?[\d.]+ \(standard error unknown, k \d+: no-difference\), turns /);
	const replay = await hlab(['search', 'replay', out]);
	t.equal(replay.record.exit_code, 0, replay.stderr);
	t.match(replay.stdout, /replayed 1 plan\(s\) of 2 round\(s\)/);
	const path = join(out, 'search-report.json');
	const report = JSON.parse(await readFile(path, 'utf8')) as {rounds: Array<{plans: Array<{outcome: {choice: {rationale: string}}}>}>};
	report.rounds[0]!.plans[0]!.outcome.choice.rationale = 'edited by hand';
	await writeFile(path, JSON.stringify(report));
	const edited = await hlab(['search', 'replay', out]);
	t.equal(edited.record.exit_code, 1);
	t.match(edited.stdout, /mismatch: round 1 plan 1: a different outcome \(choice\)/);
});
