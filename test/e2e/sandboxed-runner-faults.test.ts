import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkSandbox} from '../../process/index.js';
import {AttemptRecord} from '../../supervisor/attempt/stages/attempt-record.js';
import {buildPlan, writePlan} from '../../supervisor/plan/freeze.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

const usable = checkSandbox();
const skip = usable.ok ? false : usable.reason;
/** Two quick tasks, in this order (concurrency 1): the fault strikes the first, the second shows what came after. */
const [first, second] = ['json_config_migration', 'sales_report'] as const;
/** Short, so a runner that never answers costs seconds: the supervisor waits this, the grace, and the grace again. */
const deadlineMs = 3000;

async function freezeSandboxed(dir: string): Promise<string> {
	const policyPath = join(dir, 'policy.json');
	await writeFile(policyPath, JSON.stringify({concurrency: 1}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: `${first},${second}`, maxSteps: 12, deadlineMs,
		policyPath, controllerPath: null, configPath: null, cwd: dir, sandbox: true,
	});
	const path = join(dir, 'plan.json');
	await writePlan(path, plan);
	return path;
}

/** A step policy that does `fault` on the first task's first step, and lets every other step go on. */
function faultingPlugin(fault: string): string {
	return `import type {AgentStepPolicyInput, RuntimePlugin} from 'harness-lab/sdk';

export default {
	initialize() {
		return {protocol_version: 1, id: 'fault', capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]};
	},
	invokeCapability({input}) {
		if ((input as AgentStepPolicyInput).task_id === ${JSON.stringify(first)}) {
			${fault}
		}
		return {output: {stop: false}};
	},
} satisfies RuntimePlugin;
`;
}

interface Case {
	name: string;
	fault: string;
	/** The first task's reason and a pattern its message matches. */
	reason: string;
	message: RegExp;
	/** The second task: passed (the runner lived or its thread was replaced), or failed with this reason. */
	after: {status: 'passed'} | {status: 'failed'; reason: string; message: RegExp};
}

const cases: Case[] = [
	{
		name: 'a plugin that SIGSTOPs the runner: the supervisor ends the stopped runner past the hard deadline and the grace',
		fault: 'process.kill(process.pid, \'SIGSTOP\');',
		reason: 'timeout', message: /the sandboxed task runner did not answer within \d+ ms after the task's hard deadline; the runner was ended/,
		after: {status: 'failed', reason: 'crash', message: /the sandboxed task runner ended/},
	},
	{
		name: 'a plugin that SIGSTOPs the runner\'s whole process group (bubblewrap too)',
		fault: 'process.kill(0, \'SIGSTOP\');',
		reason: 'timeout', message: /the sandboxed task runner did not answer within \d+ ms after the task's hard deadline; the runner was ended/,
		after: {status: 'failed', reason: 'crash', message: /the sandboxed task runner ended/},
	},
	{
		name: 'a plugin that SIGKILLs the runner: its task and every later one crash, naming the runner\'s end',
		// bubblewrap, the runner's parent in its namespace, exits 128 + 9 for it.
		fault: 'process.kill(process.pid, \'SIGKILL\');',
		reason: 'crash', message: /the sandboxed task runner ended: (killed by SIGKILL|exited with status 137)/,
		after: {status: 'failed', reason: 'crash', message: /the sandboxed task runner ended/},
	},
	{
		name: 'a plugin that spins forever in its step hook: the runner ends that thread at the hard deadline and runs the next task',
		fault: 'for (;;) {}',
		reason: 'timeout', message: /did not yield within \d+ ms after its deadline; its worker thread was ended/,
		after: {status: 'passed'},
	},
];

for (const fault of cases) {
	t.test(fault.name, {skip}, async t => {
		const dir = await scratch(t);
		const plan = await freezeSandboxed(dir);
		const candidate = join(dir, 'fault.ts');
		await writeFile(candidate, faultingPlugin(fault.fault));
		const t0 = performance.now();
		const {report} = await attempt(plan, join(dir, 'run'), candidate);
		const elapsed = performance.now() - t0;
		t.ok(elapsed < 30_000, `the attempt ended in ${Math.round(elapsed)} ms`);
		const record = AttemptRecord.parse(JSON.parse(await readFile(join(dir, 'run', 'attempt.json'), 'utf8')));
		t.equal(record.executor, 'sandboxed-runner', 'the tasks ran in the sandboxed runner');
		t.same(report.tasks.map(task => task.task_id), [first, second], 'both tasks are in the report');
		const [struck, next] = report.tasks as [typeof report.tasks[0], typeof report.tasks[0]];
		t.equal(struck.status, 'failed');
		t.equal(struck.reason, fault.reason, struck.message ?? '');
		t.match(struck.message, fault.message);
		t.equal(next.status, fault.after.status, next.message ?? '');
		if (fault.after.status === 'failed') {
			t.equal(next.reason, fault.after.reason, next.message ?? '');
			t.match(next.message, fault.after.message);
		}
		t.equal(report.passed, false);
		t.ok(existsSync(join(dir, 'run', 'report.json')), 'the report is written');
	});
}
