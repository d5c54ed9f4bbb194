import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {AttemptRecord} from '../../supervisor/attempt/stages/attempt-record.js';
import {buildPlan, frozenPlanSummary, writePlan} from '../../supervisor/plan/freeze.js';
import {computePlanDigest} from '../../supervisor/plan/plan-digest.js';
import type {TotalBudget} from '../../supervisor/plan/plan-schema.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

const tasks = 'answer_from_prompt,implement_function,sales_report';

/** Freezes the three tasks, one at a time, with this total budget (none when undefined). */
async function freezeWith(dir: string, name: string, totalBudget: TotalBudget | undefined): Promise<string> {
	const policyPath = join(dir, `${name}-policy.json`);
	await writeFile(policyPath, JSON.stringify({concurrency: 1}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: tasks, maxSteps: 12, deadlineMs: 60_000,
		policyPath, controllerPath: null, configPath: null, cwd: dir, ...(totalBudget === undefined ? {} : {totalBudget}),
	});
	const path = join(dir, `${name}.json`);
	await writePlan(path, plan);
	return path;
}

t.test('a task budget launches only that many tasks; the rest fail with reason budget', async t => {
	const dir = await scratch(t);
	const open = await attempt(await freezeWith(dir, 'open', undefined), join(dir, 'open-attempt'));
	t.same(open.report.tasks.map(task => task.status), ['passed', 'passed', 'passed'], 'without a budget every task runs');
	const limited = await attempt(await freezeWith(dir, 'two', {max_total_tasks: 2, max_total_tokens: null}), join(dir, 'two-attempt'));
	t.same(limited.report.tasks.map(task => task.status), ['passed', 'passed', 'failed']);
	const last = limited.report.tasks[2]!;
	t.equal(last.reason, 'budget');
	t.match(last.message, /not launched: the attempt's total budget is spent \(2 of at most 2 tasks launched\)/);
	t.equal(last.usage, null, 'the task never reached the provider');
	t.equal(limited.report.passed, false);
	t.match(await readFile(join(limited.dir, 'ledger.jsonl'), 'utf8'), /"reason":"budget"/, 'the ledger records the refusal');
});

t.test('a token budget stops launching once the finished tasks used it', async t => {
	const dir = await scratch(t);
	const limited = await attempt(await freezeWith(dir, 'tokens', {max_total_tokens: 1, max_total_tasks: null}), join(dir, 'attempt'));
	const [first, ...rest] = limited.report.tasks;
	t.equal(first?.status, 'passed', 'the first task launches: nothing was spent yet');
	t.ok((first?.usage?.total_tokens ?? 0) > 1);
	t.ok(rest.every(task => task.reason === 'budget'), rest.map(task => `${task.task_id}: ${task.reason}`).join(', '));
	t.match(rest[0]?.message ?? '', /tokens used/);
	// Tasks never launched used nothing: the totals are the first task's, not unknown ("tokens unknown" before).
	t.equal(limited.report.totals.total_tokens, first?.usage?.total_tokens);
	t.equal(limited.report.totals.turns, first?.usage?.turns);
});

t.test('the budget is part of the plan digest and of its summary, with the repetition plan', async t => {
	const dir = await scratch(t);
	const withBudget = JSON.parse(await readFile(await freezeWith(dir, 'budget', {max_total_tokens: 50_000, max_total_tasks: 3}), 'utf8'));
	t.equal(computePlanDigest(withBudget), withBudget.plan_digest);
	t.not(computePlanDigest({...withBudget, total_budget: {max_total_tokens: 60_000, max_total_tasks: 3}}), withBudget.plan_digest, 'editing the budget changes the digest');
	const without = JSON.parse(await readFile(await freezeWith(dir, 'none', undefined), 'utf8'));
	t.equal(without.total_budget, undefined, 'a plan frozen without a budget has no field (older plans keep their digest)');
	const summary = frozenPlanSummary('plan.json', withBudget);
	t.match(summary, /repetition: each task once; total budget: 50000 tokens, 3 tasks/);
	t.match(frozenPlanSummary('plan.json', without), /total budget: none/);
});

t.test('attempt.json records the machine', async t => {
	const dir = await scratch(t);
	const ran = await attempt(await freezeWith(dir, 'machine', {max_total_tasks: 1, max_total_tokens: null}), join(dir, 'attempt'));
	const record = AttemptRecord.parse(JSON.parse(await readFile(join(ran.dir, 'attempt.json'), 'utf8')));
	const machine = record.machine!;
	t.ok(machine.cpu_count > 0);
	t.ok(machine.memory_bytes > 0);
	t.match(machine.kernel.release, /\S/);
	const findmnt = await runInGroup({argv: ['findmnt', '-n', '-o', 'FSTYPE', '--target', ran.dir], deadlineMs: 10_000});
	// A mount point mounted over lists each mount, the one in use last.
	t.equal(machine.evidence_fs, findmnt.stdout?.toString().trim().split('\n').at(-1), 'the evidence file system, as findmnt sees it');
	t.match(machine.programs.git ?? '', /^git version /);
	t.match(machine.programs.bash ?? '', /GNU bash/);
	t.equal(machine.programs.node, process.version);
});
