import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {installRoot} from '../../files/install-root.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const candidate = join(installRoot, 'examples', 'candidates', 'repeated-observation.ts');

t.test('a candidate ahead on every pair over too few tasks is insufficient, exit 4, with what to do', async t => {
	const dir = await tempDir(t, 'hlab-insufficient-');
	// The candidate takes a turn fewer on two of the three tasks in every trial: ahead, but over three tasks the interval reaches zero.
	// Its turns do not vary between trials, so more trials would not help: the advice is to add tasks.
	await writeFile(join(dir, 'policy.json'), JSON.stringify({acceptance: {improvement: 'turns', min_confidence: 0.95, require_all_pass: false, max_duration_ratio: 10}}));
	const step = async (args: string[], status: number): Promise<string> => {
		const run = await hlab(args, {cwd: dir, timeoutMs: 180_000});
		t.equal(run.record.exit_code, status, `hlab ${args.join(' ')}: ${run.stderr}`);
		return run.stdout;
	};
	await step(['eval', '--task', 'answer_from_prompt,sales_report,test_failure_fix', '--repeat', '2', '--experiment-policy', 'policy.json', '--freeze', 'plan.json'], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'base'], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'cand', '--candidate', candidate], 0);
	const stdout = await step(['eval', '--compare', 'base/report.json,cand/report.json', '--decision-output', 'decision.json', '--no-html'], 4);
	t.match(stdout, /^decision: INSUFFICIENT$/m);
	t.match(stdout, /^insufficient evidence: turns: the candidate is ahead but not significantly/m);
	const decision = Decision.parse(JSON.parse(await readFile(join(dir, 'decision.json'), 'utf8')));
	t.equal(decision.decision, 'insufficient');
	t.equal(decision.insufficient?.statistic, 'turns');
	t.equal(decision.insufficient?.more_trials_per_task, null);
	t.ok(decision.checks.every(check => check.satisfied || check.rule === 'improvement'), 'every gate but the improvement\'s significance holds');
	const turns = decision.statistics!.differences.find(item => item.metric === 'turns')!;
	t.equal(turns.clustered, true, 'the repeats were resampled by task');
	t.equal(turns.tasks, 3);
});
