import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {parse} from 'junit2json';
import {installRoot} from '../../files/install-root.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const candidate = join(installRoot, 'examples', 'candidates', 'step-budget.ts');

t.test('--junit is JUnit XML a real parser reads: a case per task pair and one for the decision; --summary-md and $GITHUB_STEP_SUMMARY', async t => {
	const dir = await tempDir(t, 'hlab-ci-');
	const step = async (args: string[], status: number, env?: Record<string, string>): Promise<string> => {
		const run = await hlab(args, {cwd: dir, timeoutMs: 180_000, env});
		t.equal(run.record.exit_code, status, `hlab ${args.slice(0, 4).join(' ')}: ${run.stderr}`);
		return run.stdout;
	};
	// step-budget stops at step 6: multi_file_fix (12 turns) is not done and its grader fails it; answer_from_prompt passes.
	await step(['eval', '--task', 'answer_from_prompt,multi_file_fix', '--hypothesis', 'fewer | turns <b>', '--freeze', 'plan.json'], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'base'], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'cand', '--candidate', candidate], 1);
	await writeFile(join(dir, 'job-summary.md'), '# earlier step\n');
	await step(['eval', '--compare', 'base/report.json,cand/report.json', '--decision-output', 'decision.json', '--junit', 'junit.xml', '--summary-md', 'summary.md'], 1, {GITHUB_STEP_SUMMARY: join(dir, 'job-summary.md')});

	const junit = (await parse(await readFile(join(dir, 'junit.xml'), 'utf8')))!;
	t.ok('testsuite' in junit, 'a <testsuites> document');
	const suites = (junit as {testsuite: Array<{tests?: number; failures?: number; errors?: number; testcase?: Array<{name?: string; classname?: string; failure?: Array<{message?: string}>; error?: unknown[]}>}>}).testsuite;
	t.equal(suites.length, 1);
	const [only] = suites;
	t.same([only!.tests, only!.failures, only!.errors], [3, 2, 0], 'two pairs and the decision; the failed task and the rejection are failures, not errors');
	const cases = only!.testcase!;
	t.same(cases.map(item => [item.classname, item.name]), [['task', 'answer_from_prompt'], ['task', 'multi_file_fix'], ['decision', 'decision: reject']]);
	t.notOk(cases[0]!.failure, 'a pair the candidate passed is a passing case');
	t.match(cases[1]!.failure![0]!.message, /^the candidate failed; baseline passed$/);
	t.match(cases[2]!.failure![0]!.message, /require_all_pass: candidate failed task multi_file_fix/, 'the decision\'s failure names the check');

	const summary = await readFile(join(dir, 'summary.md'), 'utf8');
	t.match(summary, /^## hlab decision: REJECT$/m);
	t.match(summary, /^Hypothesis: fewer \\\| turns &lt;b&gt;$/m, 'a pipe cannot end a cell, markup is not made');
	t.match(summary, /^\| ❌ \| require_all_pass \| candidate failed task multi_file_fix/m);
	t.match(summary, /^\| multi_file_fix \| passed, 12 turns, \d+ tokens \| failed, 6 turns/m);
	t.match(summary, /\[Comparison page\]\(.*decision\.html\)/);
	t.equal(await readFile(join(dir, 'job-summary.md'), 'utf8'), `# earlier step\n${summary}`, 'appended to the job summary, after what an earlier step wrote');

	// Evidence that does not verify is a JUnit error, not a failure: the candidate's report claims one more pass than its ledger.
	const report = JSON.parse(await readFile(join(dir, 'cand', 'report.json'), 'utf8'));
	report.totals.passed += 1;
	await writeFile(join(dir, 'cand', 'report.json'), JSON.stringify(report));
	await step(['eval', '--compare', 'base/report.json,cand/report.json', '--junit', 'tampered.xml'], 1);
	const tampered = (await parse(await readFile(join(dir, 'tampered.xml'), 'utf8'))) as {testsuite: Array<{errors?: number; testcase?: Array<{classname?: string; error?: Array<{message?: string}>}>}>};
	t.equal(tampered.testsuite[0]!.errors, 1);
	t.match(tampered.testsuite[0]!.testcase!.find(item => item.classname === 'decision')!.error![0]!.message, /^verification: /);
	// Never overwritten: refused before anything is decided.
	await step(['eval', '--compare', 'base/report.json,cand/report.json', '--junit', 'junit.xml'], 2);
});
