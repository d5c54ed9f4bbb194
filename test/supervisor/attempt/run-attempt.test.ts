import {existsSync} from 'node:fs';
import {readFile, readdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runAttempt} from '../../../supervisor/attempt/run-attempt.js';
import {readLedger} from '../../../supervisor/attempt/task-core/ledger.js';
import {TaskResult} from '../../../supervisor/attempt/report/report-schema.js';
import {AttemptRecord} from '../../../supervisor/attempt/stages/attempt-record.js';
import {buildPlan, writePlan} from '../../../supervisor/plan/freeze.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {installRoot} from '../../../files/install-root.js';
import {hlab} from '../../hlab.js';

checkNoLeaks(t);

const ids = ['answer_from_prompt', 'sales_report', 'json_config_migration'];
// Never set: the variable name is unique to this file.
const unsetKey = 'HLAB_TEST_RUN_ATTEMPT_UNSET_KEY';

async function freezePlan(dir: string, provider: Parameters<typeof buildPlan>[0]['provider'] = {kind: 'scripted', model: 'reference'}): Promise<string> {
	const policyPath = join(dir, 'policy.json');
	await writeFile(policyPath, JSON.stringify({concurrency: 2}));
	const plan = await buildPlan({provider, selection: ids.join(','), maxSteps: 12, deadlineMs: 60_000, policyPath, controllerPath: null, configPath: null, cwd: dir});
	const path = join(dir, 'plan.json');
	await writePlan(path, plan);
	return path;
}

async function attemptOf(planPath: string, artifacts: string, change: {candidatePath?: string; signal?: AbortSignal} = {}) {
	return runAttempt({planPath, artifacts, candidatePath: change.candidatePath ?? null, signal: change.signal, keepWorkdirs: false, configPath: null, quiet: true});
}

t.test('an attempt refused before its tasks records the whole denominator failed for that reason, in frozen order', async t => {
	t.equal(process.env[unsetKey], undefined);
	const dir = await tempDir(t);
	const plan = await freezePlan(dir, {kind: 'openai-compatible', model: 'm', base_url: 'http://127.0.0.1:9/v1', api_key_env: unsetKey, reasoning_effort: null});
	const {dir: evidence, report} = await attemptOf(plan, join(dir, 'attempt'));
	t.equal(report.admission.admitted, true);
	t.same(report.tasks.map(task => [task.task_id, task.reason, task.message]), ids.map(id => [id, 'auth', `the API key variable ${unsetKey} is not set`]));
	t.same((await readLedger(join(evidence, 'ledger.jsonl'))).records.map(record => record.result.task_id), ids, 'the ledger holds the denominator in frozen order');
	for (const task of report.tasks) {
		t.same(TaskResult.parse(JSON.parse(await readFile(join(evidence, task.evidence.result!), 'utf8'))), task, `${task.task_id}: result.json is the report's entry`);
	}
	const attempt = AttemptRecord.parse(JSON.parse(await readFile(join(evidence, 'attempt.json'), 'utf8')));
	t.same(attempt.service_bindings, {}, 'a refused attempt binds no provider');
	t.equal(report.passed, false);
	t.equal(report.completion, 'finished');
});

t.test('the first refusal wins: a refused plan is not followed by compiling its candidate or starting its provider', async t => {
	const dir = await tempDir(t);
	const plan = await freezePlan(dir);
	const json = JSON.parse(await readFile(plan, 'utf8'));
	json.budgets.max_steps = 50;
	await writeFile(plan, JSON.stringify(json, null, 2));
	// A candidate that compiles (a broken one is bad input, refused before the attempt opens: see below).
	const candidate = join(installRoot, 'examples', 'candidates', 'step-budget.ts');
	const {dir: evidence, report} = await attemptOf(plan, join(dir, 'attempt'), {candidatePath: candidate});
	t.equal(report.admission.admitted, false);
	t.ok(report.tasks.every(task => task.reason === 'admission'), 'admission, not the candidate, is the reason');
	t.equal(report.candidate, null);
	t.notOk(existsSync(join(evidence, 'candidate')), 'the candidate was never compiled');
	t.notOk(existsSync(join(evidence, 'services')), 'the scripted provider was never started');
});

t.test('a missing or broken candidate is refused in one line, exit 2, before any evidence directory exists', async t => {
	const dir = await tempDir(t);
	await freezePlan(dir);
	await writeFile(join(dir, 'broken.ts'), 'export default {{{');
	await writeFile(join(dir, 'npm-import.ts'), "import leftPad from 'left-pad';\nexport default leftPad;\n");
	const cases: Array<[string, RegExp]> = [
		['missing.ts', /^hlab: cannot read candidate \S*missing\.ts: ENOENT[^\n]* \(no evidence directory was created\)\n$/],
		['broken.ts', /^hlab: cannot compile candidate \S*broken\.ts: broken\.ts:1:\d+: [^\n]* \(no evidence directory was created\)\n$/],
		['npm-import.ts', /^hlab: cannot compile candidate \S*npm-import\.ts: [^\n]*import 'left-pad' is refused[^\n]*\n$/],
	];
	for (const [file, pattern] of cases) {
		const artifacts = `attempt-${file}`;
		const run = await hlab(['eval', '--plan', 'plan.json', '--candidate', file, '--artifacts', artifacts], {cwd: dir});
		t.equal(run.record.exit_code, 2, `${file}: exit 2`, {stdout: run.stdout, stderr: run.stderr});
		t.match(run.stderr, pattern, `${file}: one line`);
		t.equal(run.stdout, '', `${file}: no task line was printed`);
		t.notOk(existsSync(join(dir, artifacts)), `${file}: no evidence directory`);
	}
});

t.test('an attempt interrupted before any task started keeps the whole denominator as unfinished', async t => {
	const dir = await tempDir(t);
	const plan = await freezePlan(dir);
	const stop = new AbortController();
	stop.abort();
	const {dir: evidence, report} = await attemptOf(plan, join(dir, 'attempt'), {signal: stop.signal});
	t.equal(report.completion, 'interrupted');
	t.equal(report.passed, false);
	t.same(report.tasks.map(task => [task.task_id, task.reason]), ids.map(id => [id, 'unfinished']));
	t.same((await readLedger(join(evidence, 'ledger.jsonl'))).records, [], 'no task ran, so none was recorded');
	t.ok(existsSync(join(evidence, 'services', 'scripted-provider', 'process.json')), 'the provider was started and its process record kept');
});

t.test('a finished attempt leaves no temporary file of its durable writes', async t => {
	const dir = await tempDir(t);
	const plan = await freezePlan(dir);
	const {dir: evidence, report} = await attemptOf(plan, join(dir, 'attempt'));
	t.equal(report.passed, true, report.tasks.map(task => task.message).join('; '));
	const files = (await readdir(evidence, {recursive: true})).map(String);
	t.same(files.filter(name => name.endsWith('.tmp')), []);
	t.same(await readFile(join(evidence, 'plan.json')), await readFile(plan), 'the plan copy is its exact bytes');
	for (const task of report.tasks) t.ok(files.includes(task.evidence.result!), `${task.task_id}: result.json`);
});
