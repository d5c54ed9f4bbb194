import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {readResponseScript, startScriptedServer} from '../../../scripted/index.js';
import {brokenPublishReport, copyCartridge} from '../../cartridges/cartridge-copy.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {allFiles, evalCli, readCase, readRun, reportAgent, reportResponses, settingsAgent, settingsResponses} from './cartridge-cli.js';

checkNoLeaks(t);

t.test('describe shows everything loaded without a model call; --json has every digest', async t => {
	const text = await hlab(['cartridge', 'describe', reportAgent]);
	t.equal(text.record.exit_code, 0, text.stderr);
	for (const expected of [/report_agent \(schema_version 2\)/, /harness {4}fingerprint sha256:/, /runtime .*not part of the contract/, /publish_report: Write report\.json/, /requires project_dir/, /profit_math {2}marks: smoke, regression/, /collect_report/, /eval_profit_is_correct {2}marks: required/]) {
		t.match(text.stdout, expected);
	}
	const json = JSON.parse((await hlab(['cartridge', 'describe', settingsAgent, '--json'])).stdout) as Record<string, any>;
	t.same(json.harness.enabled_tools, ['read_text', 'write_text', 'done']);
	t.same(json.cases[0].seeded_files, ['settings.json']);
	t.same(json.graders[0].graders.map((entry: {name: string}) => entry.name), ['eval_completed', 'eval_settings_match', 'eval_steps']);
	t.notOk(JSON.stringify(json).includes('"code":'), 'compiled code is not printed');
	for (const key of ['manifest', 'config', 'runtime', 'prompt', 'suite', 'sdk']) t.match(json.digests[key], /^sha256:/);
});

t.test('eval passes offline and keeps one self-contained record per case', async t => {
	const run = await evalCli(t, reportAgent, reportResponses);
	t.equal(run.status, 0, run.stderr);
	t.match(run.stdout, /case profit_math: PASSED/);
	const summary = await readRun(run.out);
	t.equal(summary.passed, true);
	t.equal(summary.exit_status, 0);
	t.match(summary.provider, {kind: 'scripted', script_path: reportResponses, script_digest: /^sha256:/});
	const record = await readCase(run.out, 'profit_math');
	t.equal(record.outcome.status, 'done');
	t.same(record.facts, {report_exists: true, observed_profit: 40}, 'the collector read the workspace');
	t.same(record.graders.map(grader => [grader.name, grader.status]), [['eval_completed', 'passed'], ['eval_profit_is_correct', 'passed']]);
	t.equal(record.processes.length, 2, 'the collector and the grader each ran in a process of their own');
	for (const entry of record.processes) {
		t.equal(entry.process.exit_code, 0);
		t.not(entry.process.pid, process.pid, `${entry.role} ran outside the agent's process`);
		t.same(entry.process.survivors, []);
	}
	t.ok(record.outcome.usage.total_tokens! > 0, 'usage is recorded');
	const caseDir = join(run.out, 'cases', 'profit_math');
	t.same(JSON.parse(await readFile(join(caseDir, 'expected.json'), 'utf8')), {profit: 40}, 'expected.json is kept apart');
	const trajectory = JSON.parse(await readFile(join(caseDir, 'trajectory.json'), 'utf8')) as {role: string}[];
	t.same(trajectory.map(message => message.role), ['system', 'user', 'assistant', 'tool', 'assistant']);
	const exchanges = JSON.parse(await readFile(join(caseDir, 'exchanges.json'), 'utf8')) as {request: {messages: unknown[]}; response: unknown}[];
	t.equal(exchanges.length, 2, 'every model request is captured with its response');
	t.ok(exchanges.every(exchange => exchange.response !== null));
	t.same(JSON.parse(await readFile(join(caseDir, 'workspace', 'report.json'), 'utf8')).profit, 40);
});

t.test('a seeded-files case: the workspace is seeded, and neither the files nor expected reach the model', async t => {
	const run = await evalCli(t, settingsAgent, settingsResponses);
	t.equal(run.status, 0, run.stderr);
	const record = await readCase(run.out, 'change_port');
	t.same(record.facts, {settings: {name: 'inventory-service', port: 9090, debug: false}});
	const exchanges = JSON.parse(await readFile(join(run.out, 'cases', 'change_port', 'exchanges.json'), 'utf8')) as {request: {messages: {role: string; content: string}[]}}[];
	const first = exchanges[0]!.request.messages;
	t.same(first.map(message => message.role), ['system', 'user']);
	t.equal(first[1]!.content, 'In settings.json, set the port to 9090. Keep everything else as it is.', 'the agent sees the goal only');
	t.notOk(JSON.stringify(first).includes('inventory-service'), 'the seeded file is not in the prompt');
	t.notOk(JSON.stringify(exchanges).includes('"expected"'), 'expected data never reaches the model');
	t.equal(record.graders.find(grader => grader.name === 'eval_steps')!.score, 1);
});

t.test('the broken tool (profit = revenue + cost) fails the required grader: the collector reads report.json, not the tool\'s claim', async t => {
	const broken = await copyCartridge(t, 'report_agent', {'tools/publish_report/execute.ts': brokenPublishReport});
	const run = await evalCli(t, broken, reportResponses);
	t.equal(run.status, 1, 'non-zero exit');
	t.match(run.stdout, /required_failed: evals\/eval_correctness\.ts#eval_profit_is_correct failed/);
	const record = await readCase(run.out, 'profit_math');
	t.equal(record.outcome.status, 'done', 'the agent finished as before');
	const trajectory = await readFile(join(run.out, 'cases', 'profit_math', 'trajectory.json'), 'utf8');
	t.match(trajectory, /\\"profit\\":40/, 'the tool claimed the right profit');
	t.equal(record.facts.observed_profit, 200, 'the file says otherwise, and that is what is judged');
	t.same(record.verdict.failures.map(failure => failure.reason), ['required_failed']);
});

t.test('a live run against an OpenAI-compatible endpoint records requests and responses, never the API key', async t => {
	const secret = `sk-hlab-test-${Date.now()}`;
	const goal = 'Publish report.json for revenue 120 and cost 80, then finish.';
	const script = await readResponseScript(reportResponses);
	if (!script.ok) throw new Error(script.problem);
	const server = await startScriptedServer({tasks: [], conversations: [{id: 'profit_math', prompt: goal, turns: script.script.tasks.profit_math!}]});
	t.teardown(() => server.close());
	const out = join(await tempDir(t), 'runs');
	const run = await hlab(['cartridge', 'eval', reportAgent, '--out', out, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'some-model', '--api-key-env', 'HLAB_CARTRIDGE_KEY'], {env: {HLAB_CARTRIDGE_KEY: secret}});
	t.equal(run.record.exit_code, 0, run.stderr);
	const summary = await readRun(out);
	t.same(summary.provider, {kind: 'openai-compatible', model: 'some-model', base_url: server.url, api_key_env: 'HLAB_CARTRIDGE_KEY', reasoning_effort: null});
	const files = await allFiles(out);
	t.ok(files.has('cases/profit_math/exchanges.json'));
	for (const [name, text] of files) t.notOk(text.includes(secret), `${name} does not hold the key`);
});

t.test('relative paths are resolved against the caller\'s working directory', async t => {
	const cartridge = await copyCartridge(t, 'report_agent');
	const cwd = join(cartridge, '..');
	const {copyFile} = await import('node:fs/promises');
	await copyFile(reportResponses, join(cwd, 'script.json'));
	const run = await hlab(['cartridge', 'eval', 'report_agent.cartridge', '--out', 'runs', '--responses', 'script.json'], {cwd});
	t.equal(run.record.exit_code, 0, run.stderr);
	const summary = await readRun(join(cwd, 'runs'));
	t.equal(summary.cartridge.dir, cartridge);
	t.equal(summary.provider.kind === 'scripted' && summary.provider.script_path, join(cwd, 'script.json'));
	const described = await hlab(['cartridge', 'describe', 'report_agent.cartridge'], {cwd});
	t.equal(described.record.exit_code, 0, described.stderr);
});
