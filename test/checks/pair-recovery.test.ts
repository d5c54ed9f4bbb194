import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {runPairRecoveryCheck} from '../../checks/pair-recovery/run-check.js';
import {PairRecoveryCheckResult} from '../../checks/pair-recovery/result-schema.js';

checkNoLeaks(t);
// The check's wall time is its synthetic sides' sleeps and the pair's polls, not CPU: its three tests run side by side
// (each in a folder of its own, each scenario's processes under a marker named for the process that runs the check).
t.jobs = 3;

t.test('the pair-recovery check passes against the real pair command, run as a user runs it', async t => {
	// From a working directory of the caller's, with a relative --output.
	const cwd = await mkdtemp(join(tmpdir(), 'hlab-pair-recovery-'));
	t.teardown(() => rm(cwd, {recursive: true, force: true}));
	const run = await hlab(['check', 'pair-recovery', '--output', './check'], {cwd, timeoutMs: 240_000});
	t.equal(run.record.exit_code, 0, run.stdout + run.stderr);
	const out = join(cwd, 'check');
	const result = PairRecoveryCheckResult.parse(JSON.parse(await readFile(join(out, 'result.json'), 'utf8')));
	for (const scenario of result.scenarios) t.ok(scenario.passed, `${scenario.name}: ${scenario.problems.join('; ') || 'ok'}`);
	t.equal(result.passed, true);
	t.same(result.scenarios.map(scenario => scenario.name), ['both-complete', 'candidate-crash', 'candidate-timeout', 'pair-cancelled', 'pair-killed']);
	t.match(result.label, /framework verification.*not a model experiment/);
	const crash = result.scenarios.find(scenario => scenario.name === 'candidate-crash')!;
	t.same(crash.tasks.candidate, {passed: 2, failed: 0, missing: 2}, 'two finished tasks kept, two unfinished stay failed');
	t.equal(crash.denominator, 4);
	const killed = result.scenarios.find(scenario => scenario.name === 'pair-killed')!;
	t.equal(killed.pair_signal, 'SIGKILL');
});

t.test('the check detects a pair that does not keep its ledger', async t => {
	const out = join(await mkdtemp(join(tmpdir(), 'hlab-pair-recovery-')), 'broken');
	const result = await runPairRecoveryCheck({outputDir: out, disableLedgerSync: true, only: ['candidate-crash']});
	t.equal(result.passed, false);
	t.equal(result.ledger_sync_disabled, true);
	t.match(result.scenarios[0]!.problems.join('\n'), /was completed but pair.json says missing/);
});

t.test('an existing output directory is refused', async t => {
	const out = await mkdtemp(join(tmpdir(), 'hlab-pair-recovery-'));
	await t.rejects(runPairRecoveryCheck({outputDir: out}));
});
