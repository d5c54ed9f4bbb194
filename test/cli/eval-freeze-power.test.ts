import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Plan} from '../../supervisor/plan/plan-schema.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

t.test('freeze refuses min_confidence 0.95 over 3 tasks × 1 trial (and × 2), naming the size that would work', async t => {
	const dir = await tempDir(t, 'hlab-power-');
	await writeFile(join(dir, 'policy.json'), JSON.stringify({acceptance: {improvement: 'quality', min_confidence: 0.95}}));
	const args = ['eval', '--task', 'answer_from_prompt,sales_report,test_failure_fix', '--experiment-policy', 'policy.json'];
	const refused = await hlab([...args, '--freeze', 'plan.json'], {cwd: dir});
	t.equal(refused.record.exit_code, 2);
	t.equal(refused.stderr, 'hlab: min_confidence 0.95 can never be met over 3 tasks × 1 trial: the exact sign test needs at least 6 paired trials, all won by the candidate; with repeats it flips whole tasks and needs at least 6 tasks, so freeze 6 tasks × 1 trial or more tasks\n');
	t.notOk(existsSync(join(dir, 'plan.json')), 'no plan is written');
	// Repeats are no way round it: the trials of one task are one piece of evidence to the sign-flip test over tasks.
	const repeated = await hlab([...args, '--repeat', '2', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(repeated.record.exit_code, 2);
	t.equal(repeated.stderr, 'hlab: min_confidence 0.95 can never be met over 3 tasks × 2 trials: the exact sign-flip test over tasks needs at least 6 tasks, all won by the candidate, however many trials each; freeze 6 tasks × 2 trials\n');

	const six = ['eval', '--task', 'answer_from_prompt,sales_report,test_failure_fix,implement_function,json_config_migration,multi_file_fix', '--experiment-policy', 'policy.json'];
	const frozen = await hlab([...six, '--repeat', '2', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	t.match(frozen.stdout, /^ {2}power: over 6 tasks × 2 trials \(12 pairs\) at 95%, no pass-rate gain is found with 80% power; significance needs at least 6 tasks with a net win$/m);
	const plan = Plan.parse(JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')));
	t.same(plan.power, {statistic: 'pass_fail', tasks: 6, trials_per_task: 2, pairs: 12, confidence: 0.95, power: 0.8, baseline_rate: 0.5, fewest_discordant_pairs: 6, detectable_effect: null});
	const admitted = await hlab(['eval', '--plan', 'plan.json', '--artifacts', 'run'], {cwd: dir, timeoutMs: 180_000});
	t.equal(admitted.record.exit_code, 0, `the plan with its power runs: ${admitted.stderr}`);
});

t.test('a plan without min_confidence has no power field, so its digest is what it was', async t => {
	const dir = await tempDir(t, 'hlab-power-');
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	t.notOk('power' in JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')));
	t.notMatch(frozen.stdout, /power:/);
});
