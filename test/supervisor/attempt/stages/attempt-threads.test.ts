import {readFile, readdir, writeFile} from 'node:fs/promises';
import {availableParallelism} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {AttemptRecord} from '../../../../supervisor/attempt/stages/attempt-record.js';
import {runAttempt} from '../../../../supervisor/attempt/run-attempt.js';
import {buildPlan, writePlan} from '../../../../supervisor/plan/freeze.js';
import {checkNoLeaks} from '../../../leak-check.js';
import {tempDir} from '../../../temp-dir.js';

checkNoLeaks(t);

// The slow polling task first, so at concurrency 8 the quick ones finish before it on the threads it shares.
const ids = ['background_job_poll', 'sales_report', 'json_config_migration', 'implement_function', 'answer_from_prompt'];

async function freezePlan(dir: string, concurrency: number, selection = ids, timeoutMs = 60_000): Promise<string> {
	const policyPath = join(dir, `policy-${concurrency}.json`);
	await writeFile(policyPath, JSON.stringify({concurrency}));
	// background_job_poll polls until its job is done: on a loaded machine that can take many more than 12 steps.
	const plan = await buildPlan({provider: {kind: 'scripted', model: 'reference'}, selection: selection.join(','), maxSteps: 45, deadlineMs: timeoutMs, policyPath, controllerPath: null, configPath: null, cwd: dir});
	const path = join(dir, `plan-${concurrency}.json`);
	await writePlan(path, plan);
	return path;
}

async function attemptOf(plan: string, artifacts: string, threads: number | null, candidatePath: string | null = null) {
	const outcome = await runAttempt({planPath: plan, artifacts, candidatePath, keepWorkdirs: false, configPath: null, quiet: true, threads});
	const record = AttemptRecord.parse(JSON.parse(await readFile(join(outcome.dir, 'attempt.json'), 'utf8')));
	return {...outcome, record};
}

/** What must not depend on how tasks share threads: the order, each verdict and what the grader saw. */
const verdicts = (report: Awaited<ReturnType<typeof attemptOf>>['report']) => report.tasks.map(task => [task.index, task.task_id, task.status, task.reason, task.grade?.passed ?? null]);

t.test('concurrency 8 on 2 threads gives the report of concurrency 1, and attempt.json records the threads, not the plan', async t => {
	const dir = await tempDir(t);
	const serial = await attemptOf(await freezePlan(dir, 1), join(dir, 'serial'), null);
	const shared = await attemptOf(await freezePlan(dir, 8), join(dir, 'shared'), 2);
	t.equal(serial.report.passed, true, serial.report.tasks.map(task => task.message).join('; '));
	t.same(verdicts(shared.report), verdicts(serial.report), 'same order, same verdicts');
	t.same([serial.record.concurrency, serial.record.threads], [1, 1], 'one lane never gets more than one thread');
	t.same([shared.record.concurrency, shared.record.threads], [8, 2], '8 tasks in flight on the 2 threads asked for');
	const plan = JSON.parse(await readFile(join(shared.dir, 'plan.json'), 'utf8'));
	t.same(keysNamed(plan, /thread/), [], 'the plan says nothing of threads');
});

t.test('by default the pool has one thread per available core, never more than the frozen concurrency', async t => {
	const dir = await tempDir(t);
	const {record, report} = await attemptOf(await freezePlan(dir, 8), join(dir, 'default'), null);
	t.equal(report.passed, true, report.tasks.map(task => task.message).join('; '));
	t.equal(record.threads, Math.min(availableParallelism(), ids.length));
});

t.test('a candidate that spins on one task: that task is a timeout, the task sharing its thread a crash naming it, and the attempt finishes', async t => {
	const dir = await tempDir(t);
	const candidate = join(dir, 'spin-on-answer.ts');
	await writeFile(candidate, `
export default {
	initialize: () => ({protocol_version: 1, capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]}),
	invokeCapability: ({input}: {input: {task_id: string}}) => {
		if (input.task_id === 'answer_from_prompt') for (;;) {}
		return {output: {stop: false}};
	},
};
`);
	const plan = await freezePlan(dir, 2, ['json_config_migration', 'answer_from_prompt'], 3000);
	const {report, record} = await attemptOf(plan, join(dir, 'spin'), 1, candidate);
	t.equal(record.threads, 1);
	t.equal(report.completion, 'finished');
	const [mate, spin] = report.tasks;
	t.match(spin, {task_id: 'answer_from_prompt', status: 'failed', reason: 'timeout', message: /did not yield within \d+ ms after its deadline; its worker thread was ended/});
	t.match(mate, {task_id: 'json_config_migration', status: 'failed', reason: 'crash', message: /the code of task answer_from_prompt, running (beside it|there), did not yield/});
});

t.test('a refused attempt closes the threads it warmed beside admission: none outlives it, and no task ran on them', async t => {
	const dir = await tempDir(t);
	const plan = await freezePlan(dir, 8);
	// The first attempt starts what any attempt leaves to the process (libuv's file threads); the count is taken after it.
	await attemptOf(plan, join(dir, 'warm'), null);
	const json = JSON.parse(await readFile(plan, 'utf8'));
	json.budgets.max_steps = 50;
	await writeFile(plan, JSON.stringify(json, null, 2));
	const before = await settledThreadCount(() => true);
	const {report, record} = await attemptOf(plan, join(dir, 'refused'), 2);
	t.equal(report.admission.admitted, false);
	t.ok(report.tasks.every(task => task.reason === 'admission'), 'every task is the refusal\'s, none ran');
	t.equal(record.threads, null, 'attempt.json records no threads for a refused attempt');
	t.equal(await settledThreadCount(count => count <= before), before, 'the process has the threads it had before the attempt');
});

/** The process's own threads (/proc/self/task), once `settled` holds for them or 5 s have passed. */
async function settledThreadCount(settled: (count: number) => boolean): Promise<number> {
	const count = async () => (await readdir('/proc/self/task')).length;
	const until = Date.now() + 5000;
	while (!settled(await count()) && Date.now() < until) await new Promise(resolve => setTimeout(resolve, 50));
	return count();
}

/** Every key anywhere in a JSON value whose name matches (a package named thread-stream is a value, not a key). */
function keysNamed(value: unknown, pattern: RegExp): string[] {
	if (Array.isArray(value)) return value.flatMap(item => keysNamed(item, pattern));
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([key, item]) => [...(pattern.test(key) ? [key] : []), ...keysNamed(item, pattern)]);
}
