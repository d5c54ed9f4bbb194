import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {responseScriptSchema} from '../../../scripted/index.js';
import {copyCartridge} from '../../cartridges/cartridge-copy.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {evalCli, readCase, readRun, reportResponses, type CliRun} from './cartridge-cli.js';

checkNoLeaks(t);

/*
 * The exit matrix of `hlab cartridge eval`, one row per test: zero only when everything required ran and passed;
 * 1 for a failed or missing required grader, an explicit error, a collector error, a malformed answer, an empty
 * required suite, a threshold miss; 2 for input it cannot run (an unknown case, a broken cartridge).
 */

const grader = (body: string): string => `import {grader, skip} from 'harness-lab/sdk';\nvoid skip;\n${body}\n`;
const completed = "export const eval_completed = grader(['required'], context => context.completed);";

async function row(t: Test, changes: Record<string, string | null>, extra: string[] = [], responses = reportResponses): Promise<CliRun> {
	return evalCli(t, await copyCartridge(t, 'report_agent', changes), responses, extra);
}

async function reasons(run: CliRun): Promise<string[]> {
	return (await readCase(run.out, 'profit_math')).verdict.failures.map(failure => failure.reason);
}

t.test('everything required ran and passed: 0', async t => {
	const run = await row(t, {});
	t.equal(run.status, 0, run.stderr);
	t.same(await reasons(run), []);
});

t.test('a required grader fails: 1', async t => {
	const run = await row(t, {'evals/eval_correctness.ts': grader(`${completed}\nexport const eval_strict = grader(['required'], () => false);`)});
	t.equal(run.status, 1);
	t.same(await reasons(run), ['required_failed']);
});

t.test('a required grader that skipped is a failure, not missing data: 1', async t => {
	const run = await row(t, {'evals/eval_correctness.ts': grader(`${completed}\nexport const eval_judged = grader(['required'], () => skip('needs a judge model'));`)});
	t.equal(run.status, 1);
	t.same(await reasons(run), ['required_skipped']);
	t.match((await readCase(run.out, 'profit_math')).graders.find(result => result.name === 'eval_judged'), {status: 'skipped', detail: 'needs a judge model'});
});

t.test('a required grader that throws: 1', async t => {
	const run = await row(t, {'evals/eval_correctness.ts': grader(`${completed}\nexport const eval_broken = grader(['required'], () => { throw new Error('no such fact'); });`)});
	t.equal(run.status, 1);
	t.same(await reasons(run), ['required_errored']);
});

t.test('a non-required grader that throws is an explicit error too: 1', async t => {
	const run = await row(t, {'evals/eval_correctness.ts': grader(`${completed}\nexport const eval_style = grader(['smoke'], () => { throw new Error('oops'); });`)});
	t.equal(run.status, 1);
	t.same(await reasons(run), ['grader_error']);
});

t.test('an explicit error of the run (the response script runs out): 1', async t => {
	const short = join(await tempDir(t), 'short.json');
	await writeFile(short, JSON.stringify({schema: responseScriptSchema, tasks: {profit_math: [{tool_calls: [{function: {name: 'publish_report', arguments: {revenue: 120, cost: 80}}}]}]}}));
	const run = await row(t, {}, [], short);
	t.equal(run.status, 1);
	const record = await readCase(run.out, 'profit_math');
	t.same(record.verdict.failures.map(failure => failure.reason), ['run_failed', 'required_failed']);
	t.match(record.verdict.failures[0]!.detail, /script_exhausted/);
});

t.test('a collector that throws is an explicit error result, never a silent gap: 1', async t => {
	const run = await row(t, {'evals/collect_extra.ts': "export function collect_size(): Record<string, unknown> {\n\tthrow new Error('cannot stat');\n}\n"});
	t.equal(run.status, 1);
	t.same(await reasons(run), ['collector_error']);
	const record = await readCase(run.out, 'profit_math');
	t.match(record.collectors.find(result => result.name === 'collect_size'), {status: 'error', error: /cannot stat/});
	t.equal(record.facts.observed_profit, 40, 'the other collector\'s facts are kept');
});

t.test('a malformed answer (a grader returning what is no grader answer): 1', async t => {
	const run = await row(t, {'evals/eval_correctness.ts': grader(`${completed}\nexport const eval_words = grader(['smoke'], () => 'looks fine' as never);`)});
	t.equal(run.status, 1);
	t.same(await reasons(run), ['grader_malformed']);
});

t.test('an evaluation process that dies: its graders are errors: 1', async t => {
	const run = await row(t, {'evals/eval_correctness.ts': grader(`${completed}\nexport const eval_exit = grader(['required'], () => process.exit(3));`)});
	t.equal(run.status, 1);
	t.same(await reasons(run), ['evaluation_process', 'required_errored', 'required_errored']);
	t.match((await readCase(run.out, 'profit_math')).processes.find(entry => entry.role === 'grader'), {problem: /exited with 3/});
});

t.test('an unknown case: 2, and nothing runs', async t => {
	const run = await row(t, {}, ['--case', 'no_such_case']);
	t.equal(run.status, 2);
	t.match(run.stderr, /unknown case no_such_case \(the cartridge has profit_math\)/);
	await t.rejects(readRun(run.out));
});

t.test('an empty required suite (no grader marked required): 1', async t => {
	const run = await row(t, {'evals/eval_correctness.ts': grader("export const eval_completed = grader(['smoke'], context => context.completed);")});
	t.equal(run.status, 1);
	t.same(await reasons(run), [], 'each case passed its graders');
	t.same((await readRun(run.out)).failures.map(failure => failure.reason), ['no_required_grader']);
});

t.test('a threshold miss: 1; the same run with a threshold it meets: 0', async t => {
	const scored = {'evals/eval_correctness.ts': grader(`${completed}\nexport const eval_quality = grader(['quality'], () => 0.6);`)};
	const miss = await row(t, scored, ['--threshold', '0.8']);
	t.equal(miss.status, 1);
	t.same(await reasons(miss), ['threshold']);
	const met = await row(t, scored, ['--threshold', '0.5']);
	t.equal(met.status, 0, met.stdout);
});

t.test('a broken cartridge: 2, with every problem listed', async t => {
	const run = await row(t, {'config.yaml': 'max_steps: -1\n', 'cartridge.json': '{"name": "report_agent"}'});
	t.equal(run.status, 2);
	t.match(run.stderr, /config\.yaml: max_steps/);
	t.match(run.stderr, /cartridge\.json: schema_version/);
});

const judged = {
	'evals/eval_judge.ts': "import {modelGrader} from 'harness-lab/sdk';\n"
		+ 'export const eval_judge_agrees = modelGrader([\'required\'], async (context, ask) => (await ask(`Is a profit of ${String(context.facts.observed_profit)} correct for revenue 120 and cost 80? Answer YES or NO.`)).trim() === \'YES\');\n',
};

t.test('a required grader that asks a model, without --judge, is skipped: 1', async t => {
	const run = await row(t, judged);
	t.equal(run.status, 1);
	t.same(await reasons(run), ['required_skipped']);
	t.match((await readCase(run.out, 'profit_math')).graders.find(result => result.name === 'eval_judge_agrees'), {status: 'skipped', detail: /run with --judge/});
});

t.test('with --judge it asks the judge model on the provider\'s endpoint, and its exchange is recorded: 0', async t => {
	const script = JSON.parse(await readFile(reportResponses, 'utf8')) as {tasks: Record<string, unknown>};
	const question = 'Is a profit of 40 correct for revenue 120 and cost 80? Answer YES or NO.';
	const withJudge = join(await tempDir(t), 'with-judge.json');
	await writeFile(withJudge, JSON.stringify({...script, prompts: {judge_profit: question}, tasks: {...script.tasks, judge_profit: [{content: 'YES'}]}}));
	const run = await row(t, judged, ['--judge', '--judge-model', 'judge-model'], withJudge);
	t.equal(run.status, 0, run.stdout);
	const result = (await readCase(run.out, 'profit_math')).graders.find(entry => entry.name === 'eval_judge_agrees')!;
	t.equal(result.status, 'passed');
	t.equal(result.judge_exchanges.length, 1);
	t.same(result.judge_exchanges[0]!.request, {model: 'judge-model', messages: [{role: 'user', content: question}]});
	t.same((await readRun(run.out)).options.judge, {model: 'judge-model'});
});

t.test('--judge-model without --judge: 2', async t => {
	const run = await row(t, {}, ['--judge-model', 'm']);
	t.equal(run.status, 2);
	t.match(run.stderr, /--judge-model applies only with --judge/);
});
