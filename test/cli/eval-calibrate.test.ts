import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Calibration} from '../../supervisor/compare/calibration.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {installRoot} from '../../files/install-root.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

t.test('--calibrate runs the baseline twice under the plan and records each statistic\'s spread between the runs', async t => {
	const dir = await tempDir(t, 'hlab-calibrate-');
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt,sales_report', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const run = await hlab(['eval', '--plan', 'plan.json', '--calibrate', '--artifacts', 'cal'], {cwd: dir, timeoutMs: 180_000});
	t.equal(run.record.exit_code, 0, run.stderr);
	const calibration = Calibration.parse(JSON.parse(await readFile(join(dir, 'cal', 'calibration.json'), 'utf8')));
	const reports = await Promise.all(['a', 'b'].map(async name => Report.parse(JSON.parse(await readFile(join(dir, 'cal', name, 'report.json'), 'utf8')))));
	t.same(reports.map(report => report.side), ['baseline', 'baseline'], 'both runs are the plan\'s baseline');
	t.equal(calibration.entries, 2);
	t.equal(calibration.plan_digest, reports[0]!.plan_digest);
	// The spread is recomputed here from the two reports the runs wrote, not taken on the calibration's word.
	for (const [statistic, total] of [['turns', 'turns'], ['total_tokens', 'total_tokens'], ['wall_ms', 'wall_ms']] as const) {
		const item = calibration.statistics.find(entry => entry.statistic === statistic)!;
		const [a, b] = reports.map(report => report.totals[total]);
		t.equal(item.a, a, `${statistic} a`);
		t.equal(item.b, b, `${statistic} b`);
		t.equal(item.spread, Math.abs(b! - a!), `${statistic} spread`);
		t.equal(item.per_trial, Math.abs(b! - a!) / 2);
	}
	const tokens = calibration.statistics.find(entry => entry.statistic === 'total_tokens')!;
	if (tokens.relative !== null && tokens.relative > 0) t.ok(tokens.suggested_min_effect !== null && 'relative' in tokens.suggested_min_effect && tokens.suggested_min_effect.relative >= 2 * tokens.relative, 'the suggestion is at least twice the spread');
	t.match(run.stdout, /^calibration .*calibration\.json: the baseline twice under plan sha256:\S+, 2 entries each$/m);
	t.match(run.stdout, /^ {2}total tokens: \d+ and \d+, spread \d+/m);
	t.match(run.stdout, /^ {2}(suggested min_effect \(twice the spread\): \{.*\}|no spread in turns or tokens)/m);

	const again = await hlab(['eval', '--plan', 'plan.json', '--calibrate', '--artifacts', 'cal'], {cwd: dir});
	t.equal(again.record.exit_code, 2, 'a calibration is never overwritten');
	t.match(again.stderr, /already holds a calibration/);
});

t.test('--calibrate refuses a candidate: it measures the baseline against itself', async t => {
	const dir = await tempDir(t, 'hlab-calibrate-');
	await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: dir});
	const refused = await hlab(['eval', '--plan', 'plan.json', '--calibrate', '--artifacts', 'cal', '--candidate', join(installRoot, 'examples', 'candidates', 'repeated-observation.ts')], {cwd: dir});
	t.equal(refused.record.exit_code, 2);
	t.equal(refused.stderr, 'hlab: --calibrate runs the plan\'s own baseline twice; it takes no --candidate\n');
	t.notOk(existsSync(join(dir, 'cal')), 'nothing ran');
});
