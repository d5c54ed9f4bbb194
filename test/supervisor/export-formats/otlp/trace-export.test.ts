import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../../../files/install-root.js';
import {runAttempt} from '../../../../supervisor/attempt/run-attempt.js';
import {semconvSchemaUrl, semconvVersion} from '../../../../supervisor/export-formats/otlp/index.js';
import {freeze, scratch} from '../../../e2e/experiment-fixture.js';
import {hlab} from '../../../hlab.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {closedPort, startReceiver, type ReceivedSpan} from './otlp-receiver.js';

checkNoLeaks(t);

const contentKeys = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result', 'gen_ai.evaluation.explanation'];
const sum = (spans: ReceivedSpan[], key: string): number => spans.reduce((total, span) => total + Number(span.attributes[key]), 0);

t.test('the pinned semantic-conventions version is the installed package\'s', async t => {
	const installed = JSON.parse(await readFile(join(installRoot, 'node_modules', '@opentelemetry', 'semantic-conventions', 'package.json'), 'utf8')) as {version: string};
	const declared = JSON.parse(await readFile(join(installRoot, 'package.json'), 'utf8')) as {dependencies: Record<string, string>};
	t.equal(semconvVersion, installed.version);
	t.equal(declared.dependencies['@opentelemetry/semantic-conventions'], semconvVersion, 'pinned exactly');
});

t.test('an attempt sends each task as one trace: invoke_agent, a chat span per request, an execute_tool span per call, the verdict as an event', async t => {
	const dir = await scratch(t);
	const receiver = await startReceiver(t);
	const plan = await freeze({dir, tasks: 'sales_report,answer_from_prompt', policy: {concurrency: 1}});
	const {report} = await runAttempt({planPath: plan, artifacts: join(dir, 'run'), candidatePath: null, keepWorkdirs: false, configPath: null, quiet: true, traces: {endpoint: receiver.url, content: false}});
	t.ok(report.passed);
	t.ok(receiver.requests.every(line => line === 'POST /v1/traces application/json'), 'OTLP/HTTP to the traces path');
	const traces = new Set(receiver.spans.map(span => span.traceId));
	t.equal(traces.size, report.tasks.length, 'one trace per task');
	for (const result of report.tasks) {
		const root = receiver.spans.find(span => span.attributes['hlab.task.id'] === result.task_id)!;
		t.ok(root, `${result.task_id}: its invoke_agent span`);
		t.equal(root.name, 'invoke_agent builtin-coding-agent');
		t.equal(root.parentSpanId ?? '', '', 'at the root of its trace');
		t.match(root.attributes, {
			'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'builtin-coding-agent', 'gen_ai.agent.version': /^sha256:/, 'gen_ai.request.model': 'hlab-scripted-reference',
			'hlab.attempt.id': report.attempt_id, 'hlab.plan.digest': report.plan_digest, 'hlab.side': 'baseline', 'hlab.task.index': result.index, 'hlab.task.status': 'passed',
			'gen_ai.usage.input_tokens': result.usage!.input_tokens, 'gen_ai.usage.output_tokens': result.usage!.output_tokens,
		});
		t.equal(root.attributes['hlab.task.wall_ms'], result.wall_ms, 'the supervisor\'s wall time');
		t.notOk('hlab.task.wall_unknown' in root.attributes, 'a measured wall time is not marked unknown');
		t.equal(root.schemaUrl, semconvSchemaUrl, 'the semantic-conventions version is recorded');
		t.match(root.resource, {'service.name': 'harness-lab'});
		const evaluation = root.events.filter(event => event.name === 'gen_ai.evaluation.result');
		t.equal(evaluation.length, 1, 'the grader\'s verdict, once');
		t.match(evaluation[0]!.attributes, {'gen_ai.evaluation.name': 'harness-lab grader', 'gen_ai.evaluation.score.label': 'pass', 'gen_ai.evaluation.score.value': result.grade!.score});
		const children = receiver.spans.filter(span => span.traceId === root.traceId && span !== root);
		t.ok(children.every(span => span.parentSpanId === root.spanId), 'every other span of the task is under invoke_agent');
		const chats = children.filter(span => span.attributes['gen_ai.operation.name'] === 'chat');
		t.equal(chats.length, result.usage!.turns, `${result.task_id}: a chat span per model request`);
		t.ok(chats.every(span => span.name === 'chat hlab-scripted-reference' && span.kind === 3 && span.attributes['gen_ai.response.model'] === 'hlab-scripted-reference'));
		t.equal(sum(chats, 'gen_ai.usage.input_tokens'), result.usage!.input_tokens, 'the chat spans\' input tokens are the metered ones');
		t.equal(sum(chats, 'gen_ai.usage.output_tokens'), result.usage!.output_tokens);
		t.equal(sum(chats, 'gen_ai.usage.cache_read.input_tokens'), result.usage!.cache_read_tokens);
		const tools = children.filter(span => span.attributes['gen_ai.operation.name'] === 'execute_tool');
		const trajectory = JSON.parse(await readFile(join(dir, 'run', result.evidence.trajectory!), 'utf8')) as {steps: Array<{tool_calls?: Array<{tool_call_id: string; function_name: string}>}>};
		const calls = trajectory.steps.flatMap(step => step.tool_calls ?? []);
		t.same(tools.map(span => span.attributes['gen_ai.tool.call.id']), calls.map(call => call.tool_call_id), `${result.task_id}: an execute_tool span per call, in order`);
		t.ok(tools.every(span => span.name === `execute_tool ${span.attributes['gen_ai.tool.name']}` && span.attributes['gen_ai.tool.type'] === 'function'));
		t.same(receiver.spans.filter(span => span.traceId === root.traceId).flatMap(span => contentKeys.filter(key => key in span.attributes || span.events.some(event => key in event.attributes))), [], 'no conversation content without --otlp-content');
	}
});

t.test('a task that never launched is sent with its wall time marked unknown, never as a measured 0', async t => {
	const dir = await scratch(t);
	const receiver = await startReceiver(t);
	// A budget of one task: the second is refused before it launches, so nothing timed it.
	const plan = await freeze({dir, tasks: 'answer_from_prompt,sales_report', policy: {concurrency: 1}, totalBudget: {max_total_tasks: 1, max_total_tokens: null}});
	const {report} = await runAttempt({planPath: plan, artifacts: join(dir, 'run'), candidatePath: null, keepWorkdirs: false, configPath: null, quiet: true, traces: {endpoint: receiver.url, content: false}});
	const refused = report.tasks[1]!;
	t.same([refused.reason, refused.wall_ms], ['budget', null], 'the record has no wall time');
	const root = receiver.spans.find(span => span.attributes['hlab.task.id'] === refused.task_id)!;
	t.ok(root, 'the refused task has its trace');
	t.equal(root.attributes['hlab.task.wall_unknown'], true, 'marked: the span\'s length is not a duration');
	t.notOk('hlab.task.wall_ms' in root.attributes, 'no wall time is sent');
	const ran = receiver.spans.find(span => span.attributes['hlab.task.id'] === report.tasks[0]!.task_id && span.attributes['gen_ai.operation.name'] === 'invoke_agent')!;
	t.equal(ran.attributes['hlab.task.wall_ms'], report.tasks[0]!.wall_ms);
	t.notOk('hlab.task.wall_unknown' in ran.attributes);
});

t.test('hlab export otlp sends a recorded attempt, with the conversation when --otlp-content is given', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'sales_report', policy: {concurrency: 1}});
	await runAttempt({planPath: plan, artifacts: join(dir, 'run'), candidatePath: null, keepWorkdirs: false, configPath: null, quiet: true});
	const receiver = await startReceiver(t);
	const run = await hlab(['export', 'otlp', join(dir, 'run'), '--otlp', `${receiver.url}/v1/traces`, '--otlp-content']);
	t.equal(run.record.exit_code, 0, run.stderr);
	t.equal(run.stdout, `1 task trace sent to ${receiver.url}/v1/traces\n`);
	const root = receiver.spans.find(span => span.attributes['gen_ai.operation.name'] === 'invoke_agent')!;
	t.match(JSON.parse(String(root.attributes['gen_ai.input.messages'])), [{role: 'user', parts: [{type: 'text', content: /data\/sales\.csv/}]}]);
	const read = receiver.spans.find(span => span.attributes['gen_ai.tool.name'] === 'read_file')!;
	t.match(JSON.parse(String(read.attributes['gen_ai.tool.call.arguments'])), {path: String});
	t.type(read.attributes['gen_ai.tool.call.result'], 'string');
	t.match(root.events[0]!.attributes['gen_ai.evaluation.explanation'], /pass/);
	const refused = await hlab(['export', 'otlp', join(dir, 'run'), '--otlp', 'file:///tmp/x']);
	t.equal(refused.record.exit_code, 2);
	t.match(refused.stderr, /^hlab: --otlp: file:\/\/\/tmp\/x is not an http or https URL \(OTLP\/HTTP\)\n$/);
	const secret = await hlab(['export', 'otlp', join(dir, 'run'), '--otlp', 'http://user:hunter2@127.0.0.1:4318']);
	t.equal(secret.record.exit_code, 2, 'a URL with credentials is refused: it would be written to the log');
	t.notMatch(secret.stderr, /hunter2/);
	const alone = await hlab(['export', 'otlp', join(dir, 'run'), '--otlp-content']);
	t.equal(alone.record.exit_code, 2);
	t.match(alone.stderr, /--otlp-content needs --otlp URL/);
});

t.test('a collector that is down costs the attempt one line and nothing else', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt,sales_report', policy: {concurrency: 1}});
	const url = `http://127.0.0.1:${await closedPort()}`;
	const run = await hlab(['eval', '--plan', plan, '--artifacts', join(dir, 'run'), '--json'], {env: {HLAB_OTLP_ENDPOINT: url}});
	t.equal(run.record.exit_code, 0, 'the attempt passes');
	const lines = run.stderr.split('\n').filter(line => /OTLP/.test(line));
	t.same(lines, [`hlab: warning: OTLP export to ${url}/v1/traces failed (connect ECONNREFUSED ${url.slice('http://'.length)}); the attempt goes on without sending its traces`], 'told once');
	const report = JSON.parse(await readFile(join(dir, 'run', 'report.json'), 'utf8')) as {passed: boolean; problems: string[]};
	t.ok(report.passed);
	t.same(report.problems, [], 'the attempt has no problem of it');
	const sent = await hlab(['export', 'otlp', join(dir, 'run'), '--otlp', url]);
	t.equal(sent.record.exit_code, 1, 'hlab export otlp, whose one job it is, fails');
	t.equal(sent.stderr.split('\n').filter(line => /OTLP/.test(line)).length, 1);
});
