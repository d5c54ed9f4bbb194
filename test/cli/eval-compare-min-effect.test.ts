import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {installRoot} from '../../files/install-root.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const candidate = join(installRoot, 'examples', 'candidates', 'repeated-observation.ts');
const tasks = 'answer_from_prompt,sales_report,test_failure_fix';

/** Freezes a plan with the given min_effect, runs the baseline and the candidate under it, and compares them. */
async function decide(t: Test, minEffect: object): Promise<{stdout: string; stderr: string; status: number | null; decision: Decision}> {
	const dir = await tempDir(t, 'hlab-min-effect-');
	await writeFile(join(dir, 'policy.json'), JSON.stringify({acceptance: {improvement: 'turns', require_all_pass: false, max_duration_ratio: 10, min_effect: minEffect}}));
	const step = async (args: string[], status: number): Promise<{stdout: string; stderr: string}> => {
		const run = await hlab(args, {cwd: dir, timeoutMs: 180_000});
		t.equal(run.record.exit_code, status, `hlab ${args.join(' ')}: ${run.stderr}`);
		return run;
	};
	await step(['eval', '--task', tasks, '--experiment-policy', 'policy.json', '--freeze', 'plan.json'], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'base'], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'cand', '--candidate', candidate], 0);
	const run = await hlab(['eval', '--compare', 'base/report.json,cand/report.json', '--decision-output', 'decision.json', '--no-html'], {cwd: dir, timeoutMs: 180_000});
	const decision = Decision.parse(JSON.parse(await readFile(join(dir, 'decision.json'), 'utf8')));
	return {stdout: run.stdout, stderr: run.stderr, status: run.record.exit_code, decision};
}

// The candidate takes a turn fewer on two of the three tasks: a saving of 2/3 of a turn per trial, every run alike.
t.test('a candidate whose only gain is below min_effect is not accepted, and the check says the margin and the change', async t => {
	const {stdout, status, decision} = await decide(t, {turns: {absolute: 1}});
	t.equal(decision.decision, 'reject', stdout);
	t.equal(status, 1);
	const check = decision.checks.find(item => item.rule === 'improvement')!;
	t.equal(check.satisfied, false);
	t.match(check.message, /^turns: not fewer beyond the margin: \d+ vs baseline \d+, a saving of 0\.67 per trial \([\d.]+%\), not more than min_effect 1 per trial$/);
	t.strictSame(decision.policy?.min_effect, {turns: {absolute: 1}});
	t.ok(decision.checks.filter(item => item.rule !== 'improvement').every(item => item.satisfied), 'every other gate holds: only the margin refuses it');
});

t.test('the same gain above a relative min_effect is accepted', async t => {
	// The baseline takes 16 turns over 3 tasks: 10% of its 5.33 per trial is 0.53, just below the 0.67 saved.
	const {stdout, status, decision} = await decide(t, {turns: {relative: 0.1}});
	t.equal(decision.decision, 'accept', stdout);
	t.equal(status, 0);
	t.match(decision.checks.find(item => item.rule === 'improvement')!.message, /^turns: fewer beyond the margin: .*a saving of 0\.67 per trial.*more than min_effect 10\.0% of the baseline's [\d.]+ per trial \([\d.]+ per trial\)$/);
});
