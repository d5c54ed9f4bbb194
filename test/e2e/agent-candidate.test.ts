import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {AgentTaskRecord} from '../../supervisor/agent/index.js';
import {reportSummary} from '../../supervisor/attempt/index.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {hlab} from '../hlab.js';
import {answerFromPrompt} from '../../tasks/answer_from_prompt/task.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {freezeAgentPlan, solvingAgent, writeCommandAgent} from '../supervisor/agent/command-agents.js';

checkNoLeaks(t);

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

t.test('--agent is refused beside another candidate in one line, and a sandboxed plan refuses an agent side rather than run it uncontained', async t => {
	const dir = await tempDir(t, 'hlab-agent-refusals-');
	const plan = await freezeAgentPlan(t, dir);
	const agent = await writeCommandAgent(dir, 'solver', solvingAgent);
	const both = await hlab(['eval', '--plan', plan, '--agent', agent.spec, '--candidate', agent.script, '--artifacts', join(dir, 'both')]);
	t.equal(both.record.exit_code, 2);
	t.match(both.stderr, /^hlab: give at most one of --agent, --candidate, --candidate-host and --candidate-cartridge\n$/);

	const sandboxed = await freezeAgentPlan(t, dir, {sandbox: true, name: 'sandboxed'});
	const artifacts = join(dir, 'sandboxed-side');
	const run = await hlab(['eval', '--plan', sandboxed, '--agent', agent.spec, '--artifacts', artifacts, '--json']);
	t.equal(run.record.exit_code, 1, run.stderr);
	const report = Report.parse(await readJson(join(artifacts, 'report.json')));
	t.match(report.tasks[0], {status: 'failed', reason: 'init', message: /--sandbox for agents is not built/});
	t.equal(report.tasks[0]!.evidence.agent_task, undefined, 'no agent ran');
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
