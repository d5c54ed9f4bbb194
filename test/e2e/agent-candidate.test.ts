import {once} from 'node:events';
import {readFile, writeFile} from 'node:fs/promises';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {homedir, networkInterfaces} from 'node:os';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {installRoot} from '../../files/install-root.js';
import {checkSandbox} from '../../process/index.js';
import {AgentTaskRecord} from '../../supervisor/agent/index.js';
import {reportSummary} from '../../supervisor/attempt/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {AtifTrajectory} from '../../supervisor/export-formats/index.js';
import {hlab} from '../hlab.js';
import {answerFromPrompt} from '../../tasks/answer_from_prompt/task.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {freezeAgentPlan, solvingAgent, writeCommandAgent} from '../supervisor/agent/command-agents.js';

checkNoLeaks(t);

const sandbox = checkSandbox();
const sandboxSkip = sandbox.ok ? false : sandbox.reason;

/** A service answering 200 on `address`, its URL. */
async function listen(t: Test, address: string): Promise<string> {
	const server = createServer((_request, response) => response.end('a service'));
	server.listen(0, address);
	await once(server, 'listening');
	t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())));
	return `http://${address}:${(server.address() as AddressInfo).port}/`;
}

/** An address of this machine that is not loopback, when it has one. */
function outsideAddress(): string | null {
	return Object.values(networkInterfaces()).flat().find(entry => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address ?? null;
}

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));

t.test('hlab eval --plan --agent: a command agent solves answer_from_prompt through its task\'s metering proxy, graded independently', async t => {
	const dir = await tempDir(t, 'hlab-agent-e2e-');
	const plan = await freezeAgentPlan(t, dir);
	const agent = await writeCommandAgent(dir, 'solver', solvingAgent);
	const artifacts = join(dir, 'side');
	const run = await hlab(['eval', '--plan', plan, '--agent', agent.spec, '--artifacts', artifacts, '--json']);
	t.equal(run.record.exit_code, 0, run.stderr);
	const report = Report.parse(await readJson(join(artifacts, 'report.json')));
	t.equal(report.passed, true);
	t.equal(report.side, 'candidate', 'an agent side is the candidate unless --side says otherwise');
	t.equal(report.timing, 'supervised-host');
	t.match(report.agent, {schema: 'harness-lab/agent-identity@1', adapter: 'command', adapter_version: 1, package: null, installed_digest: null, executable_digest: /^sha256:[0-9a-f]{64}$/});
	const task = report.tasks[0]!;
	t.equal(task.status, 'passed', task.message ?? '');
	t.equal(task.outcome?.final_text, 'The job finished at 12:25.', 'the collected answer is what the grader read');
	t.match(task.usage, {turns: 1, token_source: 'provider'}, 'the usage is what the proxy metered');
	t.equal(task.usage_claim, null, 'a command claims no usage');
	const attempt = await readJson(join(artifacts, 'attempt.json')) as {agent: unknown; executor: string};
	t.strictSame(attempt.agent, report.agent, 'attempt.json names the same agent');
	t.equal(attempt.executor, 'agent');
	const folder = join(artifacts, 'tasks', '001-answer_from_prompt');
	const record = AgentTaskRecord.parse(await readJson(join(folder, 'agent-task.json')));
	t.match(record, {exit_code: 0, failure: null, requests: 1, last_exchange: {status: 200, refused: false}, final_text: 'The job finished at 12:25.'});
	t.equal(record.argv.at(-1), answerFromPrompt.prompt, 'the task is the last argument');
	t.equal(record.argv[0], agent.script, 'the script beside the spec');
	for (const file of ['stdout.log', 'stderr.log', 'process.json', 'messages.jsonl', 'metering.json']) t.ok(task.evidence[file.replace(/\.\w+$/, '')], `${file} is in the evidence`);
	t.match(await readFile(join(folder, 'messages.jsonl'), 'utf8'), /"role":"assistant","content":"The job finished at 12:25."/);
	// The agent's own account, as an ATIF trajectory naming the agent, with the proxy's metering as its totals.
	const trajectory = AtifTrajectory.parse(await readJson(join(artifacts, task.evidence.trajectory!)));
	t.match(trajectory.agent, {name: 'command', model_name: report.agent!.model, extra: {adapter: 'command', config_digest: report.agent!.config_digest}});
	t.match(trajectory.steps.at(-1), {source: 'agent', message: 'The job finished at 12:25.', metrics: {prompt_tokens: null}});
	t.match(trajectory.final_metrics, {total_prompt_tokens: task.usage!.input_tokens, total_completion_tokens: task.usage!.output_tokens});
	t.match(reportSummary(artifacts, report), /supervised-host agent command\)/, 'the summary names the agent');
	const page = join(dir, 'side.html');
	const written = await hlab(['report', artifacts, '--output', page]);
	t.equal(written.record.exit_code, 0, written.stderr);
	t.match(await readFile(page, 'utf8'), /command adapter v1: a script beside its spec, config [0-9a-f]{12}/, 'the HTML report carries the agent\'s identity');
});

t.test('two agent sides of one plan are compared on the whole attempts\' wall times from the supervisor\'s records, each side naming its agent', async t => {
	const dir = await tempDir(t, 'hlab-agent-compare-');
	const plan = await freezeAgentPlan(t, dir);
	const baseline = await writeCommandAgent(dir, 'baseline-agent', solvingAgent);
	const candidate = await writeCommandAgent(dir, 'candidate-agent', `await new Promise(resolve => setTimeout(resolve, 50));\n${solvingAgent}`);
	for (const [side, agent] of [['baseline', baseline], ['candidate', candidate]] as const) {
		const run = await hlab(['eval', '--plan', plan, '--agent', agent.spec, '--side', side, '--artifacts', join(dir, side), '--json']);
		t.equal(run.record.exit_code, 0, run.stderr);
	}
	const decisionPath = join(dir, 'decision.json');
	const compared = await hlab(['eval', '--compare', `${join(dir, 'baseline', 'report.json')},${join(dir, 'candidate', 'report.json')}`, '--decision-output', decisionPath, '--json']);
	const decision = Decision.parse(await readJson(decisionPath));
	t.equal(decision.timing?.kind, 'supervised', decision.timing?.message ?? compared.stderr);
	const spans = async (side: string): Promise<number> => {
		const record = AgentTaskRecord.parse(await readJson(join(dir, side, 'tasks', '001-answer_from_prompt', 'agent-task.json')));
		return record.ended_ms - record.started_ms;
	};
	t.equal(decision.timing?.baseline_wall_ms, await spans('baseline'), 'the baseline\'s whole attempt is its one launch\'s span');
	t.equal(decision.timing?.candidate_wall_ms, await spans('candidate'));
	t.match(decision.baseline.agent, {adapter: 'command'});
	t.match(decision.candidate.agent, {adapter: 'command'});
	t.match(decision.checks.find(check => check.rule === 'metering'), {satisfied: true, message: /metered by the supervisor at the provider boundary/}, 'the metering check covers agent sides');
	const report = Report.parse(await readJson(join(dir, 'candidate', 'report.json')));
	t.match(report.host_measure, {attempt_wall_ms: await spans('candidate'), usage_source: 'provider-proxy', usage_differences: []}, 'the report states the supervisor\'s measure');
	t.equal(decision.candidate.agent?.config_digest, decision.baseline.agent?.config_digest, 'both specs have the same (empty) config');
});

t.test('--agent is refused beside another candidate in one line', async t => {
	const dir = await tempDir(t, 'hlab-agent-refusals-');
	const plan = await freezeAgentPlan(t, dir);
	const agent = await writeCommandAgent(dir, 'solver', solvingAgent);
	const both = await hlab(['eval', '--plan', plan, '--agent', agent.spec, '--candidate', agent.script, '--artifacts', join(dir, 'both')]);
	t.equal(both.record.exit_code, 2);
	t.match(both.stderr, /^hlab: give at most one of --agent, --candidate, --candidate-host and --candidate-cartridge\n$/);
});

/** An agent that solves the task, then reports what else it could reach: another loopback service, a host that is not loopback, home, the suite's expected data. */
const pryingAgent = `${solvingAgent.replace('console.log(answer);', '')}
const {readdirSync} = await import('node:fs');
const reach = async url => {
	try { return 'HTTP ' + (await fetch(url, {signal: AbortSignal.timeout(3000)})).status; } catch (error) { return 'ERR ' + (error.cause?.code ?? error.name); }
};
const list = dir => { try { return readdirSync(dir).length + ' entries'; } catch (error) { return error.code; } };
const seen = {other: await reach(process.env.OTHER_URL), outside: await reach(process.env.OUTSIDE_URL), home: list(process.env.USER_HOME), expected: list(process.env.EXPECTED_DIR)};
console.error(JSON.stringify(seen));
console.log(answer);`;

t.test('under --sandbox an agent solves its task through its proxy, and reaches nothing else: no other service, no host beyond loopback, no home, no expected data', {skip: sandboxSkip}, async t => {
	const dir = await tempDir(t, 'hlab-agent-sandbox-');
	const other = await listen(t, '127.0.0.1');
	const outside = outsideAddress();
	const env = {OTHER_URL: other, OUTSIDE_URL: outside === null ? 'http://192.0.2.1:9/' : await listen(t, outside), USER_HOME: homedir(), EXPECTED_DIR: join(installRoot, 'tasks', 'answer_from_prompt')};
	const agent = await writeCommandAgent(dir, 'prying', pryingAgent, {env: Object.keys(env)});
	const seenBy = async (sandbox: boolean): Promise<Record<string, string>> => {
		const plan = await freezeAgentPlan(t, dir, {sandbox, name: sandbox ? 'sandboxed' : 'open'});
		const artifacts = join(dir, sandbox ? 'sandboxed-side' : 'open-side');
		const run = await hlab(['eval', '--plan', plan, '--agent', agent.spec, '--artifacts', artifacts, '--json'], {env});
		t.equal(run.record.exit_code, 0, run.stderr);
		const report = Report.parse(await readJson(join(artifacts, 'report.json')));
		t.equal(report.tasks[0]!.status, 'passed', report.tasks[0]!.message ?? 'the agent solved its task through its proxy');
		const stderr = await readFile(join(artifacts, 'tasks', '001-answer_from_prompt', 'stderr.log'), 'utf8');
		return JSON.parse(stderr.split('\n').find(line => line.startsWith('{"other"')) ?? '{}') as Record<string, string>;
	};
	const open = await seenBy(false);
	t.match(open, {other: 'HTTP 200', home: /entries$/, expected: /entries$/}, 'unsandboxed, all of it is in reach');
	if (outside !== null) t.equal(open.outside, 'HTTP 200');
	const closed = await seenBy(true);
	t.equal(closed.other, 'ERR ECONNREFUSED', 'another service on the supervisor\'s loopback is out of reach');
	t.match(closed.outside, /^ERR (ENETUNREACH|EHOSTUNREACH|ECONNREFUSED|TimeoutError)$/, `a host beyond loopback is out of reach (${closed.outside})`);
	t.equal(closed.home, '0 entries', 'home is an empty folder');
	t.equal(closed.expected, 'ENOENT', 'the suite\'s task folders are empty: its expected data is absent');
});

t.test('a plan frozen with --agent runs that agent as its baseline, and refuses it once its identity changed', async t => {
	const dir = await tempDir(t, 'hlab-agent-frozen-');
	const agent = await writeCommandAgent(dir, 'frozen-agent', solvingAgent);
	const plan = join(dir, 'plan.json');
	const frozen = await hlab(['eval', '--provider', 'scripted', '--model', 'reference', '--task', 'answer_from_prompt', '--agent', agent.spec, '--freeze', plan, '--json']);
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const planned = await readJson(plan) as {agent: {spec: string; identity: unknown}};
	t.equal(planned.agent.spec, agent.spec);

	const run = await hlab(['eval', '--plan', plan, '--artifacts', join(dir, 'baseline'), '--json']);
	t.equal(run.record.exit_code, 0, run.stderr);
	const report = Report.parse(await readJson(join(dir, 'baseline', 'report.json')));
	t.equal(report.side, 'baseline');
	t.equal(report.timing, 'supervised-host');
	t.strictSame(report.agent, planned.agent.identity, 'the baseline ran the frozen agent');
	t.equal(report.tasks[0]!.status, 'passed');

	const script = await readFile(agent.script, 'utf8');
	await writeFile(agent.script, `${script}\n// changed after the freeze\n`);
	const edited = await hlab(['eval', '--plan', plan, '--artifacts', join(dir, 'edited'), '--json']);
	t.equal(edited.record.exit_code, 1, edited.stderr);
	t.match(Report.parse(await readJson(join(dir, 'edited', 'report.json'))).tasks[0], {reason: 'admission', message: /is not the one the plan froze: executable_digest was "sha256:/}, 'a changed script beside the spec is a changed agent');
	await writeFile(agent.script, script);

	await writeFile(agent.spec, JSON.stringify({...JSON.parse(await readFile(agent.spec, 'utf8')), flags: ['--faster']}));
	const refused = await hlab(['eval', '--plan', plan, '--artifacts', join(dir, 'changed'), '--json']);
	t.equal(refused.record.exit_code, 1, refused.stderr);
	const changed = Report.parse(await readJson(join(dir, 'changed', 'report.json')));
	t.match(changed.tasks[0], {reason: 'admission', message: /is not the one the plan froze: flags was \[\] when frozen, is \["--faster"\] now/});
});
