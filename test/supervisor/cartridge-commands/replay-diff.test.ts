import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {CartridgeDiff} from '../../../cartridges/index.js';
import {ReplayReport} from '../../../supervisor/cartridge-commands/index.js';
import {brokenPublishReport, copyCartridge} from '../../cartridges/cartridge-copy.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {evalCli, readCase, readRun, reportAgent, reportResponses} from './cartridge-cli.js';

checkNoLeaks(t);

// One recorded run of the working report agent, replayed below against changed cartridges.
const recorded = await evalCli(t, reportAgent, reportResponses);

async function replay(cartridge: string): Promise<{status: number | null; stdout: string; stderr: string; out: string}> {
	const out = join(await tempDir(t, 'hlab-replay-'), 'runs');
	const run = await hlab(['cartridge', 'replay', recorded.out, '--cartridge', cartridge, '--out', out]);
	return {status: run.record.exit_code, stdout: run.stdout, stderr: run.stderr, out};
}

const recordedTurns = async (out: string): Promise<unknown[]> => {
	const exchanges = JSON.parse(await readFile(join(out, 'cases', 'profit_math', 'exchanges.json'), 'utf8')) as {response: {choices: {message: {content: unknown; tool_calls: {function: unknown}[]}}[]}}[];
	return exchanges.map(exchange => {
		const {message} = exchange.response.choices[0]!;
		return [message.content, message.tool_calls.map(call => call.function)];
	});
};

t.test('the recording passed', async t => {
	t.equal(recorded.status, 0, recorded.stderr);
});

t.test('replaying the captured run against the broken-tool cartridge reports the changed outcome, model responses unchanged', async t => {
	const broken = await copyCartridge(t, 'report_agent', {'tools/publish_report/execute.ts': brokenPublishReport});
	const run = await replay(broken);
	t.equal(run.status, 1, 'the replayed run fails its required grader');
	t.match(run.stdout, /case profit_math: CHANGED; model responses unchanged/);
	t.match(run.stdout, /grader evals\/eval_correctness\.ts#eval_profit_is_correct: passed -> failed/);
	const report = ReplayReport.parse(JSON.parse(await readFile(join(run.out, 'replay.json'), 'utf8')));
	t.equal(report.changed, true);
	t.not(report.recorded_fingerprint, report.replayed_fingerprint, 'the harness changed');
	const [entry] = report.cases;
	t.equal(entry!.responses_unchanged, true);
	t.equal(entry!.diverged, null);
	t.same(entry!.changes, [
		'verdict: passed -> failed',
		'grader evals/eval_correctness.ts#eval_profit_is_correct: passed -> failed',
		'fact observed_profit: 40 -> 200',
	]);
	t.same(await recordedTurns(run.out), await recordedTurns(recorded.out), 'the model turns sent are the recorded ones');
	const summary = await readRun(run.out);
	t.equal(summary.replay_of, recorded.out);
	t.equal((await readCase(run.out, 'profit_math')).replay_of?.case_id, 'profit_math');
});

t.test('replaying against the same cartridge reports no change', async t => {
	const run = await replay(reportAgent);
	t.equal(run.status, 0, run.stderr);
	t.match(run.stdout, /case profit_math: unchanged; model responses unchanged/);
});

t.test('a replay whose harness no longer offers a recorded tool stops that case with a named reason', async t => {
	const renamed = await copyCartridge(t, 'report_agent', {
		'tools/publish_report': null,
		'tools/publish/tool.yaml': 'name: publish\ndescription: Write report.json.\nparameters:\n  revenue: {type: integer}\n  cost: {type: integer}\nrequires: [project_dir]\n',
		'tools/publish/execute.ts': brokenPublishReport,
	});
	const run = await replay(renamed);
	t.equal(run.status, 1);
	const report = ReplayReport.parse(JSON.parse(await readFile(join(run.out, 'replay.json'), 'utf8')));
	t.equal(report.cases[0]!.diverged?.reason, 'script_unknown_tool');
	t.match(report.cases[0]!.diverged?.detail, /calls publish_report, which the harness does not offer/);
});

t.test('a replay of a malformed record fails, naming the file', async t => {
	const corrupt = join(await tempDir(t), 'corrupt');
	const {cp, writeFile} = await import('node:fs/promises');
	await cp(recorded.out, corrupt, {recursive: true});
	await writeFile(join(corrupt, 'cases', 'profit_math', 'exchanges.json'), '[{"step_index": "one"}]');
	const out = join(await tempDir(t), 'runs');
	const run = await hlab(['cartridge', 'replay', corrupt, '--cartridge', reportAgent, '--out', out]);
	t.equal(run.record.exit_code, 1);
	t.match(run.stderr, /exchanges\.json: 0\.step_index/);
});

t.test('diff shows the structural difference section by section; exit 1 when they differ, 0 when not', async t => {
	const same = await hlab(['cartridge', 'diff', reportAgent, await copyCartridge(t, 'report_agent')]);
	t.equal(same.record.exit_code, 0, same.stderr);
	t.match(same.stdout, /harness unchanged[\s\S]*no difference/);

	const changed = await copyCartridge(t, 'report_agent', {
		'tools/publish_report/execute.ts': brokenPublishReport,
		'prompts/system.md': '# Report agent\n\nPublish the report, then call done.\n',
		'config.yaml': 'max_steps: 6\ndone_tool: done\n',
		'runtime.yaml': 'use_native_tools: false\n',
		'evals/eval_correctness.ts': "import {grader} from 'harness-lab/sdk';\nexport const eval_profit_is_correct = grader(['smoke'], () => true);\n",
		'evals/cases/loss.json': JSON.stringify({id: 'loss', task: {goal: 'Publish a loss.'}}),
	});
	const text = await hlab(['cartridge', 'diff', reportAgent, changed, '--show']);
	t.equal(text.record.exit_code, 1);
	t.match(text.stdout, /harness CHANGED/);
	t.match(text.stdout, /- \tconst report = \{revenue: args\.revenue, cost: args\.cost, profit: args\.revenue - args\.cost\};/);
	t.match(text.stdout, /\+ Publish the report, then call done\./);
	const json = CartridgeDiff.parse(JSON.parse((await hlab(['cartridge', 'diff', reportAgent, changed, '--json'])).stdout));
	t.same(json.changes.map(change => `${change.section} ${change.name} ${change.change} ${change.detail}`), [
		'config config.yaml changed config differ',
		'runtime runtime.yaml changed runtime differ',
		'prompt prompts/system.md changed text differ',
		'tools publish_report changed source differ',
		'cases loss added only in the second',
		'graders evals/eval_correctness.ts changed source, marks differ',
	]);
	t.equal(json.changes[0]!.lines, null, 'lines only with --show');

	const suiteOnly = await copyCartridge(t, 'report_agent', {'evals/cases/loss.json': JSON.stringify({id: 'loss', task: {goal: 'Publish a loss.'}})});
	const suite = CartridgeDiff.parse(JSON.parse((await hlab(['cartridge', 'diff', reportAgent, suiteOnly, '--json'])).stdout));
	t.equal(suite.harness_changed, false, 'a new case changes the suite, not the harness');
});
