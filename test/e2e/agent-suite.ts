import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Test} from 'tap';
import type {AgentPackage} from '../../agents/agent-spec.js';
import {exampleSpec, notStored, storedPackage} from '../agents/adapters/agent-run.js';
import {installRoot} from '../../files/install-root.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {hlab} from '../hlab.js';
import {tempDir} from '../temp-dir.js';

/** An example spec of examples/agents/, and why its real run cannot happen here (false when its package is in the store). */
export interface ExampleAgent {
	id: string;
	spec: string;
	package: AgentPackage;
	skip: string | false;
}

export async function exampleAgent(id: Parameters<typeof exampleSpec>[0]): Promise<ExampleAgent> {
	const spec = await exampleSpec(id);
	return {id, spec: join(installRoot, 'examples', 'agents', `${id}.json`), package: spec.package, skip: notStored(spec, await storedPackage(spec))};
}

/** Freezes the whole built-in suite on the scripted provider, two tasks at a time, with room for an agent's polls. */
export async function freezeSuite(t: Test, {sandbox = false}: {sandbox?: boolean} = {}): Promise<{dir: string; plan: string}> {
	const dir = await tempDir(t, 'hlab-agent-suite-');
	const policy = join(dir, 'policy.json');
	await writeFile(policy, JSON.stringify({concurrency: 2}));
	const plan = join(dir, 'plan.json');
	const frozen = await hlab(['eval', '--provider', 'scripted', '--model', 'reference', '--task', 'all', '--max-steps', '30', '--timeout', '2m', '--experiment-policy', policy, ...(sandbox ? ['--sandbox'] : []), '--freeze', plan]);
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	return {dir, plan};
}

/** Runs one side of the plan with the agent, and reads its report. */
export async function runSide(t: Test, plan: string, agent: ExampleAgent, artifacts: string): Promise<Report> {
	const run = await hlab(['eval', '--plan', plan, '--agent', agent.spec, '--artifacts', artifacts, '--json'], {timeoutMs: 600_000});
	t.ok(run.record.exit_code === 0 || run.record.exit_code === 1, `the side ran (exit ${run.record.exit_code}) ${run.stderr.slice(-400)}`);
	return Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8')));
}

/** The built-in suite by an agent: at least six of the seven tasks pass by the graders, and each failure is named. */
export function expectSuite(t: Test, agent: ExampleAgent, report: Report): void {
	const failed = report.tasks.filter(task => task.status !== 'passed');
	t.equal(report.tasks.length, 7, 'every task of the suite ran');
	t.ok(failed.length <= 1, `${agent.id}: ${7 - failed.length}/7 passed${failed.map(task => `; ${task.task_id} ${task.reason}: ${task.message}`).join('')}`);
	t.match(report.agent, {adapter: agent.id, package: agent.package, installed_digest: /^sha256:/}, 'the report names the agent and its installed digest');
	for (const task of report.tasks) t.equal(task.usage?.token_source, 'provider', `${task.task_id}: the usage is the proxy's metering of the provider's own counts`);
	t.comment(`${agent.id}: ${report.tasks.map(task => `${task.task_id} ${task.status}`).join(', ')}`);
}
