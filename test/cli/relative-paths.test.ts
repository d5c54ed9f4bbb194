import {existsSync} from 'node:fs';
import {copyFile, mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {dirname, join, relative} from 'node:path';
import t from 'tap';
import {writeSyntheticSide} from '../../checks/pair-recovery/synthetic-side.js';
import {installRoot} from '../../files/install-root.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

// A command that starts `bin/hlab.js` by its `#!/usr/bin/env node` must find this Node.
const env = {PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`};

/**
 * The `check` commands and `controller build`/`verify` are run this way by their own tests (test/checks/).
 * Every other command, run as a user would from a working directory of their own (neither the checkout nor the test's),
 * with every path option relative to it: each must read and write exactly there.
 */
t.test('every command resolves relative path options against the caller\'s working directory', async t => {
	const work = join(await tempDir(t, 'hlab-relative-'), 'work');
	await mkdir(work);
	const run = async (args: string[], timeoutMs = 240_000) => {
		const result = await hlab(args, {cwd: work, env, timeoutMs});
		return {...result, says: `hlab ${args.join(' ')}: exit ${result.record.exit_code}\n${result.stdout}${result.stderr}`};
	};
	const here = (path: string): string => join(work, path);
	await copyFile(join(installRoot, 'examples', 'candidates', 'step-budget.ts'), here('candidate.ts'));
	await writeFile(here('policy.json'), JSON.stringify({concurrency: 1, acceptance: {require_all_pass: true, improvement: 'non-regression', max_duration_ratio: 1000}}));

	t.test('supervise --record', async t => {
		const supervised = await run(['supervise', '--record', 'process.json', '--', 'true']);
		t.equal(supervised.record.exit_code, 0, supervised.says);
		t.ok(existsSync(here('process.json')));
	});

	t.test('eval: freeze, plan, candidate, compare, recover; agent; plugin', async t => {
		const frozen = await run(['eval', '--task', 'answer_from_prompt', '--experiment-policy', 'policy.json', '--freeze', 'plan.json']);
		t.equal(frozen.record.exit_code, 0, frozen.says);
		const baseline = await run(['eval', '--plan', 'plan.json', '--artifacts', 'baseline']);
		t.equal(baseline.record.exit_code, 0, baseline.says);
		const candidate = await run(['eval', '--plan', './plan.json', '--candidate', 'candidate.ts', '--artifacts', './candidate']);
		t.equal(candidate.record.exit_code, 0, candidate.says);
		const compared = await run(['eval', '--compare', 'baseline/report.json,candidate/report.json', '--decision-output', 'decision.json']);
		t.ok(existsSync(here('decision.json')), compared.says);
		t.match(JSON.parse(await readFile(here('decision.json'), 'utf8')), {baseline: {report: here('baseline/report.json')}, candidate: {report: here('candidate/report.json')}});
		await mkdir(here('crashed'));
		await copyFile(here('baseline/plan.json'), here('crashed/plan.json'));
		await copyFile(here('baseline/ledger.jsonl'), here('crashed/ledger.jsonl'));
		const recovered = await run(['eval', '--recover', 'crashed']);
		t.ok(existsSync(here('crashed/report.json')), recovered.says);

		const agent = await run(['agent', '--task', 'answer_from_prompt', '--workspace', 'ws', '--state-dir', 'state', '--candidate', 'candidate.ts']);
		t.equal(agent.record.exit_code, 0, agent.says);
		t.ok(existsSync(here('ws')) && existsSync(here('state/messages.jsonl')));
		const valid = await run(['plugin', 'validate', 'candidate.ts']);
		t.equal(valid.record.exit_code, 0, valid.says);
		const described = await run(['plugin', 'describe', '--types-dir', 'types']);
		t.equal(described.record.exit_code, 0, described.says);
		t.ok(existsSync(here('types')));
	});

	t.test('snapshot-source, pair and build-host', async t => {
		const snapshot = await run(['snapshot-source', '--out', 'source.tar', '--dir', relative(work, installRoot)]);
		t.equal(snapshot.record.exit_code, 0, snapshot.says);
		t.ok(existsSync(here('source.tar')));
		await writeSyntheticSide(work, 'synthetic-hlab', {baseline: {records: 1, then: 'report'}, candidate: {records: 1, then: 'report'}});
		const [paired, built] = await Promise.all([
			run(['pair', '--plan', 'plan.json', '--baseline', 'synthetic-hlab.mjs', '--source-baseline', 'source.tar', '--candidate', 'candidate.ts', '--output', 'pair-1', '--timeout', '60']),
			run(['build-host', '--out', 'build']),
		]);
		t.equal(paired.record.exit_code, 0, paired.says);
		t.match(JSON.parse(await readFile(here('pair-1/pair.json'), 'utf8')), {status: 'finished', comparison: {decision: 'accept'}});
		t.equal(built.record.exit_code, 0, built.says);
		t.ok(existsSync(here('build/hlab')) && existsSync(here('build/build.json')));
	});

	t.teardown(() => rm(work, {recursive: true, force: true}));
});
