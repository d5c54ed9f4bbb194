import {mkdir, readdir} from 'node:fs/promises';
import {basename, join} from 'node:path';
import {validateCandidate} from '../engine/index.js';
import {runAttempt} from '../supervisor/attempt/index.js';
import {reportSummary} from '../supervisor/attempt/index.js';
import {compareReports, writeDecision} from '../supervisor/compare/compare-reports.js';
import {decisionSummary} from '../supervisor/compare/decision-summary.js';
import {buildPlan, writePlan} from '../supervisor/plan/freeze.js';
import {installRoot} from '../files/install-root.js';
import {writeJson} from '../files/write-json.js';

/**
 * `npm start`: the whole loop on the scripted provider, in a new folder under experiments/:
 * freeze, baseline, validate each example candidate, run the valid ones, compare, and say where everything is.
 */
async function main(): Promise<number> {
	const stamp = new Date().toISOString().replaceAll(':', '-').replace(/\..*$/, '');
	const root = join(process.cwd(), 'experiments', stamp);
	await mkdir(root, {recursive: true});
	const say = (line: string): void => void process.stdout.write(`${line}\n`);
	const t0 = performance.now();
	say(`harness-lab demo in ${root}`);

	const policyPath = join(root, 'policy.json');
	await writeJson(policyPath, {concurrency: 2, acceptance: {require_all_pass: true, improvement: 'turns-or-tokens', max_duration_ratio: 1.25}});
	const planPath = join(root, 'plan.json');
	const plan = await buildPlan({provider: {kind: 'scripted', model: 'reference'}, selection: 'all', maxSteps: 12, deadlineMs: 60_000, policyPath, controllerPath: null, configPath: null});
	await writePlan(planPath, plan);
	say(`\n1. froze ${planPath}: ${plan.task_ids.length} tasks (${plan.task_ids.join(', ')}), no model call`);

	say('\n2. baseline');
	const baseline = await runAttempt({planPath, artifacts: join(root, 'baseline'), candidatePath: null, keepWorkdirs: false, configPath: null});
	say(reportSummary(baseline.dir, baseline.report));

	const candidatesDir = join(installRoot, 'examples', 'candidates');
	const files = (await readdir(candidatesDir).catch(() => [] as string[])).filter(name => name.endsWith('.ts') && !name.endsWith('.d.ts')).sort();
	const decisions: string[] = [];
	for (const [position, name] of files.entries()) {
		const file = join(candidatesDir, name);
		const label = basename(name, '.ts');
		say(`\n${3 + position}. candidate ${file}`);
		const verdict = await validateCandidate(file);
		await writeJson(join(root, `validate-${label}.json`), verdict);
		if (!verdict.valid) {
			say(`   not valid, not run: ${verdict.errors.join('; ')}`);
			decisions.push(`${label}: not run (invalid candidate)`);
			continue;
		}
		const attempt = await runAttempt({planPath, artifacts: join(root, `candidate-${label}`), candidatePath: file, keepWorkdirs: false, configPath: null});
		say(reportSummary(attempt.dir, attempt.report));
		const decisionPath = join(root, `decision-${label}.json`);
		const decision = await compareReports(join(baseline.dir, 'report.json'), join(attempt.dir, 'report.json'));
		await writeDecision(decisionPath, decision);
		say(decisionSummary(decision, decisionPath));
		decisions.push(`${label}: ${decision.decision.toUpperCase()} (${decisionPath})`);
	}
	say(`\ndone in ${((performance.now() - t0) / 1000).toFixed(1)} s; everything is in ${root}`);
	say(`  plan      ${planPath}`);
	say(`  baseline  ${join(baseline.dir, 'report.json')}`);
	for (const line of decisions) say(`  ${line}`);
	return 0;
}

try {
	process.exitCode = await main();
} catch (error) {
	process.stderr.write(`hlab demo: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
}
