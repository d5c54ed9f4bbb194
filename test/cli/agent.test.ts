import {mkdir, readdir, writeFile} from 'node:fs/promises';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {hlab as hlabCli} from '../hlab.js';
import {builtinTasks} from '../../tasks/index.js';
import {ExecutionOutcome} from '../../engine/index.js';
import {installRoot as projectRoot} from '../../files/install-root.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

/** The real `hlab` command line, run from the project root. */
const hlabCommand = (args: string[]) => hlabCli(args, {cwd: projectRoot});


t.test('with the scripted provider, every built-in task passes through hlab agent', async t => {
	const dir = await tempDir(t, 'hlab-agent-cli-');
	// One task prints the text report; the others print JSON.
	const textTask = 'json_config_migration';
	const runs = await Promise.all(builtinTasks.map(async task => {
		const workspace = join(dir, task.id);
		const args = ['agent', '--task', task.id, '--workspace', workspace, '--state-dir', join(dir, `${task.id}.state`)];
		const result = await hlabCommand(task.id === textTask ? args : [...args, '--json']);
		return {task, workspace, result};
	}));
	for (const {task, workspace, result} of runs) {
		t.equal(result.record.exit_code, 0, `${task.id}: exit status 0 ${result.stderr}`);
		t.ok(existsSync(join(dir, `${task.id}.state`, 'journal.jsonl')) && existsSync(join(dir, `${task.id}.state`, 'messages.jsonl')), `${task.id}: the journal is kept`);
		t.ok((await readdir(workspace)).length > 0, `${task.id}: the workspace was set up`);
		if (task.id === textTask) {
			t.match(result.stdout, /^outcome +done after \d+ steps$/m);
			t.match(result.stdout, /^grade +passed \(score 1\.00\)$/m);
			t.match(result.stdout, /^usage +\d+ turns; tokens: input \d+ \(cache read \d+, cache write \d+\), output \d+, total \d+; cost unknown$/m);
			continue;
		}
		const report = JSON.parse(result.stdout);
		t.equal(report.schema, 'harness-lab/agent-run@1');
		t.equal(report.task, task.id);
		t.ok(ExecutionOutcome.safeParse(report.outcome).success, `${task.id}: the outcome is well-formed`);
		t.equal(report.outcome.status, 'done', `${task.id}: done`);
		t.equal(report.grade.passed, true, `${task.id}: ${report.grade.details}`);
		t.ok(report.outcome.usage.turns > 0 && report.outcome.usage.total_tokens > 0, `${task.id}: usage is reported`);
		t.equal(report.outcome.usage.cost_usd, null);
	}
});

t.test('a candidate runs with the task', async t => {
	const dir = await tempDir(t, 'hlab-agent-cli-');
	const result = await hlabCommand(['agent', '--task', 'sales_report', '--workspace', join(dir, 'ws'), '--state-dir', join(dir, 'state'), '--candidate', 'examples/candidates/repeated-observation.ts', '--json']);
	t.equal(result.record.exit_code, 0, result.stderr);
	const report = JSON.parse(result.stdout);
	t.same([report.outcome.status, report.outcome.stopped_by.plugin, report.grade.passed, report.candidate.plugin_id], ['policy_stop', 'repeated-observation', true, 'repeated-observation']);
	t.match(report.candidate.source_digest, /^sha256:[0-9a-f]{64}$/);
});

t.test('a candidate that does not activate is an init failure', async t => {
	const dir = await tempDir(t, 'hlab-agent-cli-');
	await writeFile(join(dir, 'bad.ts'), 'export default {initialize: () => ({protocol_version: 9, capabilities: []}), invokeCapability: () => ({output: null})};');
	const result = await hlabCommand(['agent', '--task', 'sales_report', '--workspace', join(dir, 'ws'), '--state-dir', join(dir, 'state'), '--candidate', join(dir, 'bad.ts'), '--json']);
	t.equal(result.record.exit_code, 1);
	const report = JSON.parse(result.stdout);
	t.same([report.outcome.status, report.outcome.reason, report.grade.passed], ['failed', 'init', false], 'a failed grade exits 1');
});

t.test('an openai-compatible provider without its key is an auth failure', async t => {
	const dir = await tempDir(t, 'hlab-agent-cli-');
	const result = await hlabCommand(['agent', '--task', 'sales_report', '--workspace', join(dir, 'ws'), '--state-dir', join(dir, 'state'), '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'some-model', '--api-key-env', 'HLAB_TEST_KEY_THAT_IS_NOT_SET', '--json']);
	t.equal(result.record.exit_code, 1);
	const report = JSON.parse(result.stdout);
	t.same([report.outcome.reason, report.provider], ['auth', {kind: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'some-model', api_key_env: 'HLAB_TEST_KEY_THAT_IS_NOT_SET', reasoning_effort: null}]);
});

t.test('bad input is refused with status 2', async t => {
	const dir = await tempDir(t, 'hlab-agent-cli-');
	await mkdir(join(dir, 'used'));
	await writeFile(join(dir, 'used', 'file.txt'), 'x');
	const cases: [string[], RegExp][] = [
		[['--task', 'sales_report', '--workspace', join(dir, 'used')], /is not empty/],
		[['--task', 'no_such_task', '--workspace', join(dir, 'a')], /unknown task no_such_task/],
		[['--task', 'sales_report', '--workspace', join(dir, 'b'), '--provider', 'openai-compatible'], /needs --base-url and --model/],
		[['--task', 'sales_report', '--workspace', join(dir, 'd'), '--timeout', 'soon'], /invalid duration/],
	];
	for (const [args, pattern] of cases) {
		const result = await hlabCommand(['agent', ...args]);
		t.equal(result.record.exit_code, 2, args.join(' '));
		t.match(result.stderr, pattern);
	}
	t.notOk(existsSync(join(dir, 'a')) || existsSync(join(dir, 'b')), 'nothing was set up');
});
