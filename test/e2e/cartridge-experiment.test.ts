import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {CaseRecord} from '../../cartridges/index.js';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {brokenPublishReport, copyCartridge, examplesDir} from '../cartridges/cartridge-copy.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const responses = join(examplesDir, 'report_agent.responses.json');
const work = await tempDir(t, 'hlab-cartridge-experiment-');
const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8')) as unknown;
const readReport = async (dir: string): Promise<Report> => Report.parse(await readJson(join(dir, 'report.json')));

// The baseline is the report agent with its tool broken (profit = revenue + cost); the plan is frozen from it.
const baselineDir = await copyCartridge(t, 'report_agent', {'tools/publish_report/execute.ts': brokenPublishReport});
const plan = join(work, 'plan.json');
const frozen = await hlab(['eval', '--cartridge', baselineDir, '--responses', responses, '--freeze', plan]);

async function attempt(name: string, extra: string[] = []): Promise<{status: number | null; stdout: string; dir: string}> {
	const dir = join(work, name);
	const run = await hlab(['eval', '--plan', plan, '--artifacts', dir, ...extra]);
	return {status: run.record.exit_code, stdout: `${run.stdout}${run.stderr}`, dir};
}

t.test('freezing a cartridge records its cases, its suite as the scorer, its harness as the baseline and the script by digest', async t => {
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const value = await readJson(plan) as {task_ids: string[]; scorer: {kind: string; files: Record<string, string>}; cartridge: {dir: string; baseline: {digest: string}}; provider: {responses: {path: string; digest: string}}};
	t.same(value.task_ids, ['profit_math']);
	t.equal(value.scorer.kind, 'cartridge');
	t.ok(value.scorer.files['evals/eval_correctness.ts'], 'the grader module is part of the scorer');
	t.ok(value.scorer.files['evals/cases/profit_math.json'], 'the case with its expected data is part of the scorer');
	t.equal(value.cartridge.dir, baselineDir);
	t.match(value.cartridge.baseline.digest, /^sha256:/);
	t.equal(value.provider.responses.path, responses);
	t.match(frozen.stdout, /cartridge report_agent .*baseline harness sha256:/);
});

t.test('a cartridge plan\'s baseline and a candidate cartridge compare to a decision', async t => {
	const baseline = await attempt('baseline');
	t.equal(baseline.status, 1, 'the broken tool fails the required grader');
	const baseReport = await readReport(baseline.dir);
	t.equal(baseReport.side, 'baseline');
	t.equal(baseReport.tasks[0]!.status, 'failed');
	t.match(baseReport.tasks[0]!.message, /required_failed: evals\/eval_correctness\.ts#eval_profit_is_correct failed/);

	// The candidate changes only the harness: the tool fixed and the prompt reworded.
	const candidateDir = await copyCartridge(t, 'report_agent', {'prompts/system.md': '# Report agent\n\nPublish the report with publish_report, then call done.\n'});
	const candidate = await attempt('candidate', ['--candidate-cartridge', candidateDir]);
	t.equal(candidate.status, 0, candidate.stdout);
	const candReport = await readReport(candidate.dir);
	t.equal(candReport.side, 'candidate');
	t.equal(candReport.admission.admitted, true);
	t.equal(candReport.tasks[0]!.status, 'passed');

	const ran = async (dir: string): Promise<{candidate: boolean; dir: string; fingerprint: {digest: string}}> => readJson(join(dir, 'cartridge.json')) as Promise<{candidate: boolean; dir: string; fingerprint: {digest: string}}>;
	const [baseRan, candRan] = [await ran(baseline.dir), await ran(candidate.dir)];
	t.equal(baseRan.dir, baselineDir);
	t.equal(candRan.dir, candidateDir);
	t.equal(candRan.candidate, true);
	t.not(baseRan.fingerprint.digest, candRan.fingerprint.digest, 'each side records the harness it ran');

	const decisionPath = join(work, 'decision.json');
	const compared = await hlab(['eval', '--compare', `${baseline.dir}/report.json,${candidate.dir}/report.json`, '--decision-output', decisionPath, '--no-html']);
	t.not(compared.record.exit_code, 2, compared.stderr);
	const decision = Decision.parse(await readJson(decisionPath));
	t.ok(['accept', 'revise', 'reject'].includes(decision.decision));
	const messages = decision.checks.map(check => `${check.rule} ${check.satisfied}: ${check.message}`);
	t.ok(messages.some(line => /^require_all_pass false: baseline failed task profit_math/.test(line)), 'the acceptance rule saw the baseline fail');
	t.ok(messages.some(line => /^require_all_pass true: candidate passed all 1 tasks/.test(line)), 'and the candidate pass');
	t.match(compared.stdout, /verification: both reports verified/);
	t.match(compared.stdout, /profit_math\s+failed.*passed/);
	// A cartridge's tools run in the supervisor's threads: neither side is contained, and the decision says so for each.
	for (const report of [baseReport, candReport]) t.same(report.integrity.reasons, ['no-sandbox', 'cartridge-tools'], `${report.side}: trusted-code for its cartridge tools`);
	t.same([decision.baseline.integrity?.label, decision.candidate.integrity?.label], ['trusted-code', 'trusted-code']);
	t.match(compared.stdout, /^ +candidate trusted-code \(.*cartridge tools and resources run in the supervisor's threads\)$/m);
});

t.test('the baseline\'s evidence has the per-case record: facts from the workspace, grader results, evaluation processes', async t => {
	const taskDir = join(work, 'baseline', 'tasks', '001-profit_math');
	const record = CaseRecord.parse(await readJson(join(taskDir, 'case-record.json')));
	t.equal(record.case_id, 'profit_math');
	t.equal(record.facts.observed_profit, 200, 'the collector read report.json written by the broken tool');
	t.same(record.graders.map(result => [result.name, result.status]), [['eval_completed', 'passed'], ['eval_profit_is_correct', 'failed']]);
	t.equal(record.verdict.passed, false);
	t.same(record.processes.map(entry => entry.role), ['collector', 'grader'], 'collectors and graders ran in their own processes');
	t.ok(record.processes.every(entry => entry.process.exit_code === 0));
	t.same(await readJson(join(taskDir, 'expected.json')), {profit: 40}, 'expected data kept apart');
	t.equal(record.provider.kind === 'scripted' ? record.provider.script_path : null, responses);
	const messages = await readFile(join(taskDir, 'messages.jsonl'), 'utf8');
	t.notMatch(messages, /"profit": ?40/, 'the agent never saw the expected data');
});

t.test('a candidate cartridge that changes a grader is refused at admission, naming it', async t => {
	const changed = await copyCartridge(t, 'report_agent', {
		'tools/publish_report/execute.ts': brokenPublishReport,
		'evals/eval_correctness.ts': "import {grader} from 'harness-lab/sdk';\n\nexport const eval_profit_is_correct = grader(['required'], () => true);\nexport const eval_completed = grader(['required'], context => context.completed);\n",
	});
	const run = await attempt('grader-changed', ['--candidate-cartridge', changed]);
	t.equal(run.status, 1);
	const report = await readReport(run.dir);
	t.equal(report.admission.admitted, false);
	t.match(report.admission.differences.join('\n'), /scorer: evals\/eval_correctness\.ts changed/);
	t.same(report.tasks.map(task => task.reason), ['admission'], 'the lenient grader never judged anything');
});

t.test('a candidate cartridge that changes a case\'s expected data is refused at admission, naming the case', async t => {
	const changed = await copyCartridge(t, 'report_agent');
	const casePath = join(changed, 'evals', 'cases', 'profit_math.json');
	const value = JSON.parse(await readFile(casePath, 'utf8')) as {expected: {profit: number}};
	value.expected.profit = 200;
	await writeFile(casePath, JSON.stringify(value));
	const run = await attempt('case-changed', ['--candidate-cartridge', changed]);
	t.equal(run.status, 1);
	const report = await readReport(run.dir);
	t.match(report.admission.differences.join('\n'), /scorer: evals\/cases\/profit_math\.json changed/);
});

t.test('a candidate cartridge that does not load is refused at admission with its problems, and nothing else', async t => {
	const broken = await copyCartridge(t, 'report_agent', {'prompts/system.md': null});
	const run = await attempt('candidate-broken', ['--candidate-cartridge', broken]);
	t.equal(run.status, 1);
	const report = await readReport(run.dir);
	t.same(report.admission.differences, [`cartridge: ${broken}: prompts/system.md: missing`]);
});

t.test('the baseline cartridge changed after freezing is refused: a changed harness is a candidate', async t => {
	await writeFile(join(baselineDir, 'prompts', 'system.md'), '# Report agent\n\nAn edit after freezing.\n');
	const run = await attempt('baseline-edited');
	t.equal(run.status, 1);
	const report = await readReport(run.dir);
	t.match(report.admission.differences.join('\n'), /cartridge: the baseline harness of .* changed since freezing .*--candidate-cartridge/);
});

t.test('a changed response script is refused at admission', async t => {
	const script = join(work, 'responses.json');
	await writeFile(script, await readFile(responses, 'utf8'));
	const scriptPlan = join(work, 'script-plan.json');
	const cartridge = await copyCartridge(t, 'report_agent');
	const frozenAgain = await hlab(['eval', '--cartridge', cartridge, '--responses', script, '--freeze', scriptPlan]);
	t.equal(frozenAgain.record.exit_code, 0, frozenAgain.stderr);
	await writeFile(script, (await readFile(responses, 'utf8')).replace('120', '121'));
	const dir = join(work, 'script-changed');
	const run = await hlab(['eval', '--plan', scriptPlan, '--artifacts', dir]);
	t.equal(run.record.exit_code, 1);
	t.match((await readReport(dir)).admission.differences.join('\n'), /response script: .* \(edited after freezing\)/);
});

t.test('a case whose task seeds files runs in a workspace seeded from them, and --task selects cases', async t => {
	const settingsPlan = join(work, 'settings-plan.json');
	const settings = join(examplesDir, 'settings_agent.cartridge');
	const frozenSettings = await hlab(['eval', '--cartridge', settings, '--responses', join(examplesDir, 'settings_agent.responses.json'), '--task', 'change_port', '--freeze', settingsPlan]);
	t.equal(frozenSettings.record.exit_code, 0, frozenSettings.stderr);
	const dir = join(work, 'settings');
	const run = await hlab(['eval', '--plan', settingsPlan, '--artifacts', dir]);
	t.equal(run.record.exit_code, 0, `${run.stdout}${run.stderr}`);
	const record = CaseRecord.parse(await readJson(join(dir, 'tasks', '001-change_port', 'case-record.json')));
	t.equal(record.verdict.passed, true);
	const unknown = await hlab(['eval', '--cartridge', settings, '--responses', join(examplesDir, 'settings_agent.responses.json'), '--task', 'no_such_case', '--freeze', join(work, 'never-settings.json')]);
	t.equal(unknown.record.exit_code, 2);
	t.match(unknown.stderr, /unknown case no_such_case \(the cartridge has change_port\)/);
});

t.test('usage mistakes are named before anything runs', async t => {
	const noScript = await hlab(['eval', '--cartridge', baselineDir, '--freeze', join(work, 'never.json')]);
	t.equal(noScript.record.exit_code, 2);
	t.match(noScript.stderr, /--cartridge with --provider scripted needs --responses/);
	const misplaced = await hlab(['eval', '--plan', plan, '--artifacts', join(work, 'never'), '--cartridge', baselineDir]);
	t.equal(misplaced.record.exit_code, 2);
	const noCartridgePlan = join(work, 'builtin-plan.json');
	t.equal((await hlab(['eval', '--task', 'all', '--freeze', noCartridgePlan])).record.exit_code, 0);
	const dir = join(work, 'not-a-cartridge-plan');
	const run = await hlab(['eval', '--plan', noCartridgePlan, '--artifacts', dir, '--candidate-cartridge', baselineDir]);
	t.equal(run.record.exit_code, 1);
	t.match((await readReport(dir)).admission.differences.join('\n'), /--candidate-cartridge needs a cartridge plan/);
});
