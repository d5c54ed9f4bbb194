import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {CandidatesDecision} from '../../supervisor/compare/candidates-decision-schema.js';
import {familyDecision} from '../../supervisor/compare/compare-candidates.js';
import {installRoot} from '../../files/install-root.js';
import {parse} from 'junit2json';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const example = (name: string): string => join(installRoot, 'examples', 'candidates', name);

t.test('three candidates against one baseline: one decision, per-candidate verdicts and Holm-adjusted p-values', async t => {
	const dir = await tempDir(t, 'hlab-candidates-');
	await writeFile(join(dir, 'policy.json'), JSON.stringify({concurrency: 2, acceptance: {improvement: 'turns', min_confidence: 0.95, max_duration_ratio: 10}}));
	const step = async (args: string[], status: number): Promise<string> => {
		const run = await hlab(args, {cwd: dir, timeoutMs: 180_000});
		t.equal(run.record.exit_code, status, `hlab ${args.slice(0, 4).join(' ')}: ${run.stderr}`);
		return run.stdout;
	};
	await step(['eval', '--task', 'sales_report,json_config_migration,multi_file_fix', '--repeat', '2', '--experiment-policy', 'policy.json', '--freeze', 'plan.json'], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'base'], 0);
	// repeated-observation takes a turn fewer on each task; step-budget stops at step 6, before multi_file_fix (12 turns) is done.
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'c1', '--candidate', example('repeated-observation.ts')], 0);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'c2', '--candidate', example('step-budget.ts')], 1);
	await step(['eval', '--plan', 'plan.json', '--artifacts', 'c3', '--candidate', example('repeated-observation.ts')], 0);
	const stdout = await step(['eval', '--compare', 'base/report.json,c1/report.json,c2/report.json,c3/report.json', '--decision-output', 'decisions.json', '--junit', 'junit.xml', '--summary-md', 'summary.md'], 0);
	t.match(stdout, /Holm's correction over 3/);
	const junit = (await parse(await readFile(join(dir, 'junit.xml'), 'utf8'))) as {testsuite: Array<{name?: string; tests?: number; failures?: number}>};
	t.same(junit.testsuite.map(suite => [suite.tests, suite.failures]), [[7, 0], [7, 3], [7, 0]], 'a suite per candidate: six pairs and its decision');
	t.match(await readFile(join(dir, 'summary.md'), 'utf8'), /^## hlab: 2 of 3 candidates accepted$/m);
	const decision = CandidatesDecision.parse(JSON.parse(await readFile(join(dir, 'decisions.json'), 'utf8')));
	t.equal(decision.family_size, 3);
	t.same(decision.candidates.map(item => item.verdict), ['accept', 'reject', 'accept']);
	t.same(decision.accepted, [join(dir, 'c1', 'report.json'), join(dir, 'c3', 'report.json')]);
	for (const item of decision.candidates) {
		t.ok(item.p_value !== null && item.adjusted_p_value !== null && item.adjusted_p_value >= item.p_value, `${item.candidate}: p ${item.p_value}, adjusted ${item.adjusted_p_value}`);
		t.equal(item.decision.decision, item.verdict, 'alone, each decides as the family does here');
	}
	t.ok(decision.candidates[1]!.decision.checks.some(check => check.rule === 'require_all_pass' && !check.satisfied), 'the rejected candidate names the check it failed');
	// The family's correction is what turns a lucky single win into insufficient: the textbook p-values, on these decisions.
	const decisions = decision.candidates.map(item => ({...item.decision, decision: 'accept' as const}));
	const paths = decision.candidates.map(item => item.candidate);
	const textbook = familyDecision(decision.baseline, paths, decisions, [0.01, 0.04, 0.03]);
	t.same(textbook.candidates.map(item => item.adjusted_p_value), [0.03, 0.06, 0.06]);
	t.same(textbook.candidates.map(item => item.verdict), ['accept', 'insufficient', 'insufficient'], 'alone each would be accepted at 95%; as a family only the first');
	// An existing decision file is never overwritten, for the family too.
	await step(['eval', '--compare', 'base/report.json,c1/report.json,c3/report.json', '--decision-output', 'decisions.json'], 2);
	const none = await step(['eval', '--compare', 'base/report.json,c2/report.json,c2/report.json'], 1);
	t.match(none, /^accepted: none$/m, 'exits 1 when no candidate is accepted');
});
