import {readFile} from 'node:fs/promises';
import {mkdtemp} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {runPairRecoveryCheck} from '../../checks/pair-recovery/run-check.js';
import {PairRecoveryCheckResult} from '../../checks/pair-recovery/result-schema.js';

checkNoLeaks(t);

t.test('the pair-recovery check passes against the real pair command', async t => {
	const out = join(await mkdtemp(join(tmpdir(), 'hlab-pair-recovery-')), 'check');
	const result = await runPairRecoveryCheck({outputDir: out});
	for (const scenario of result.scenarios) t.ok(scenario.passed, `${scenario.name}: ${scenario.problems.join('; ') || 'ok'}`);
	t.equal(result.passed, true);
	t.same(result.scenarios.map(scenario => scenario.name), ['both-complete', 'candidate-crash', 'candidate-timeout', 'pair-cancelled', 'pair-killed']);
	const written = PairRecoveryCheckResult.parse(JSON.parse(await readFile(join(out, 'result.json'), 'utf8')));
	t.match(written.label, /framework verification.*not a model experiment/);
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
