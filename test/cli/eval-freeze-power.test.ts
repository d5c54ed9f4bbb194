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

	// That run is a pilot for the next plan: its pass rate and the spread of its turns, tokens and duration.
	await writeFile(join(dir, 'turns.json'), JSON.stringify({acceptance: {improvement: 'turns', min_confidence: 0.95}}));
	const piloted = await hlab(['eval', '--task', 'answer_from_prompt,sales_report,test_failure_fix', '--repeat', '3', '--experiment-policy', 'turns.json', '--pilot', 'run/report.json', '--freeze', 'piloted.json'], {cwd: dir});
	t.equal(piloted.record.exit_code, 0, piloted.stderr);
	const power = Plan.parse(JSON.parse(await readFile(join(dir, 'piloted.json'), 'utf8'))).power!;
	t.equal(power.pilot?.report, join(dir, 'run', 'report.json'));
	t.same([power.pilot?.entries, power.pilot?.tasks], [12, 6]);
	t.same(power.pilot?.detectable.map(item => item.statistic), ['turns', 'total_tokens', 'wall_ms']);
	t.ok(power.pilot!.detectable.every(item => item.at_most === false), 'the pilot has repeats: the spread within a task is measured');
	t.match(piloted.stdout, /^ {2}pilot .*run\/report\.json \(12 entries over 6 tasks\): the smallest mean saving found with 80% power: turns [\d.]+ per trial/m);
	// The baseline passed everything: no pass-rate gain is possible from there, and plan size says so.
	t.equal(power.baseline_rate, 1);
	const full = await hlab(['plan', 'size', '--effect', '0.1', '--tasks', '20', '--pilot', 'run/report.json'], {cwd: dir});
	t.equal(full.record.exit_code, 2);
	t.equal(full.stderr, 'hlab: the pilot\'s pass rate 1 plus --effect 0.1 is past a pass rate of 1\n');
	const sized = await hlab(['plan', 'size', '--effect', '0.3', '--tasks', '10', '--baseline-rate', '0.5', '--pilot', 'run/report.json', '--json'], {cwd: dir});
	t.equal(sized.record.exit_code, 0, sized.stderr);
	const answer = JSON.parse(sized.stdout) as {trials_per_task: number; pilot: {detectable: Array<{statistic: string; detectable_difference: number | null}>}};
	t.equal(answer.trials_per_task, 6);
	t.same(answer.pilot.detectable.map(item => item.statistic), ['turns', 'total_tokens', 'wall_ms'], 'and what turns, tokens and duration show at that size');
	const noRule = await hlab(['eval', '--task', 'answer_from_prompt', '--pilot', 'run/report.json', '--freeze', 'no-rule.json'], {cwd: dir});
	t.equal(noRule.record.exit_code, 2);
	t.match(noRule.stderr, /^hlab: --pilot sizes the power of a rule with min_confidence/);
	const notReport = await hlab(['plan', 'size', '--effect', '0.1', '--tasks', '20', '--pilot', 'turns.json'], {cwd: dir});
	t.equal(notReport.record.exit_code, 2);
	t.match(notReport.stderr, /^hlab: --pilot .*turns\.json: not a harness-lab\/report@1\n$/);
});

t.test('a plan without min_confidence has no power field, so its digest is what it was', async t => {
	const dir = await tempDir(t, 'hlab-power-');
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	t.notOk('power' in JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')));
	t.notMatch(frozen.stdout, /power:/);
});
