import {existsSync} from 'node:fs';
import {readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {ControllerIdentity, TasksResult} from '../../../controller-protocol/index.js';
import {FreshWorkspaces, writeObservations} from '../../../checks/controller/observations.js';
import {readPlanFile} from '../../../supervisor/attempt/stages/read-plan.js';
import {Decision} from '../../../supervisor/compare/decision-schema.js';
import {createControllerClient} from '../../../supervisor/controller/index.js';
import {buildPlan, writePlan} from '../../../supervisor/plan/freeze.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {pinFixture, scratch} from '../controller/fixtures.js';

checkNoLeaks(t);

/** A plan pinning the `decides.mjs` controller told to answer `told`, and two synthetic sides of it; no model call. */
async function controllerSides(root: string, told: string): Promise<{baseline: string; candidate: string}> {
	const identityPath = join(root, 'controller.json');
	await writeFile(identityPath, JSON.stringify(await pinFixture('decides.mjs', [told])));
	const plan = await buildPlan({provider: {kind: 'scripted', model: 'reference'}, selection: 'all', maxSteps: 4, deadlineMs: 60_000, policyPath: null, controllerPath: identityPath, configPath: null, cwd: root});
	const planPath = join(root, 'plan.json');
	await writePlan(planPath, plan);
	const {bytes} = await readPlanFile(planPath);
	const client = createControllerClient({identity: ControllerIdentity.parse(plan.controller!.identity)});
	const tasks = TasksResult.parse(plan.controller!.tasks).tasks;
	const fresh = new FreshWorkspaces(join(root, 'fresh'));
	const side = (name: string, label: 'baseline' | 'candidate', turns: number) =>
		writeObservations({dir: join(root, name), label, candidate: null, turns, fabricate: false}, plan, bytes, tasks, client, fresh);
	return {baseline: await side('baseline', 'baseline', 4), candidate: await side('candidate', 'candidate', 3)};
}

async function compare(root: string, sides: {baseline: string; candidate: string}, name = 'decision.json') {
	const output = join(root, name);
	const run = await hlab(['eval', '--compare', `${sides.baseline},${sides.candidate}`, '--decision-output', output]);
	const decision = existsSync(output) ? Decision.parse(JSON.parse(await readFile(output, 'utf8'))) : null;
	return {run, decision, evidence: join(root, name.replace(/\.json$/, '.evidence'))};
}

async function callNames(evidence: string): Promise<string[]> {
	return (await readdir(join(evidence, 'controller', 'calls'))).sort();
}

for (const [told, status] of [['accept', 0], ['reject', 1], ['revise', 3]] as const) {
	t.test(`the pinned controller's ${told} is the decision, with exit status ${status}`, async t => {
		const root = await scratch(t);
		const {run, decision, evidence} = await compare(root, await controllerSides(root, told));
		t.equal(run.record.exit_code, status, run.stderr);
		t.equal(decision?.decision, told);
		t.equal(decision?.decided_by, 'controller');
		t.match(decision?.controller, {decision: told, reason: /told to .*passes 0 of 2/, failure: null});
		t.ok(decision?.checks.filter(check => check.rule === 'verification').every(check => check.satisfied), 'both sides verified');
		t.notOk(decision?.checks.some(check => check.rule === 'improvement' || check.rule === 'max_duration_ratio'), 'the built-in rule is not applied to a controller plan');
		t.match(run.stdout, new RegExp(`decision: ${told.toUpperCase()}`));
		t.equal(decision?.evidence, evidence);
		t.same(await callNames(evidence), ['001-score', '002-score', '003-score', '004-score', '005-accept'], 'every re-score and the accept are kept');
		for (const call of await callNames(evidence)) {
			for (const file of ['request.json', 'response.json', 'stderr.txt', 'process.json']) t.ok(existsSync(join(evidence, 'controller', 'calls', call, file)), `${call}/${file}`);
		}
		const request = JSON.parse(await readFile(join(evidence, 'controller', 'calls', '005-accept', 'request.json'), 'utf8'));
		const {plan} = await readPlanFile(join(root, 'plan.json'));
		t.same(request.params.policy, plan.policy, 'accept is told the declared policy');
		t.same(request.params.candidate.tasks.map((task: {id: string; passed: boolean}) => [task.id, task.passed]), [['alpha', false], ['beta', false]]);
		t.equal(request.params.baseline.totals.turns, 8, 'the baseline summary carries its usage');
	});
}

t.test('a controller that fails during accept rejects, naming the reason', async t => {
	const root = await scratch(t);
	const {run, decision, evidence} = await compare(root, await controllerSides(root, 'fail'));
	t.equal(run.record.exit_code, 1, run.stderr);
	t.equal(decision?.decision, 'reject');
	t.match(decision?.controller, {decision: null, reason: null, failure: {reason: 'error_response', message: /cannot_decide/}});
	t.match(decision?.checks.find(check => check.rule === 'controller'), {satisfied: false, message: /accept failed \(error_response\)/});
	t.ok(existsSync(join(evidence, 'controller', 'calls', '005-accept', 'error.json')), 'the failed call is kept');
});

t.test('a side whose re-score failed cannot win, even when the controller accepts it', async t => {
	const root = await scratch(t);
	const sides = await controllerSides(root, 'accept');
	const report = JSON.parse(await readFile(sides.candidate, 'utf8')) as {tasks: Array<{evidence: {result: string}}>};
	await writeFile(join(root, 'candidate', report.tasks[1]!.evidence.result), 'damaged');
	const {run, decision, evidence} = await compare(root, sides);
	t.equal(run.record.exit_code, 1, run.stderr);
	t.equal(decision?.controller?.decision, 'accept', 'the controller did answer accept');
	t.equal(decision?.decision, 'reject');
	t.match(decision?.checks.find(check => !check.satisfied && check.rule === 'verification')?.message, /beta .*cannot be re-scored/);
	t.ok(decision?.checks.some(check => !check.satisfied && /^candidate: ledger: ledger line 2 \(entry beta\): tasks\/002-beta\/result.json changed since it was sealed/.test(check.message)), 'and its seal names the damaged file');
	const request = JSON.parse(await readFile(join(evidence, 'controller', 'calls', '004-accept', 'request.json'), 'utf8'));
	t.match(request.params.candidate.tasks[1], {id: 'beta', passed: false, failure: 'rescore'}, 'accept is told the task failed');
});

t.test('an existing decision is refused before any controller call', async t => {
	const root = await scratch(t);
	const sides = await controllerSides(root, 'accept');
	await writeFile(join(root, 'decision.json'), '{}');
	const run = await hlab(['eval', '--compare', `${sides.baseline},${sides.candidate}`, '--decision-output', join(root, 'decision.json')]);
	const evidence = join(root, 'decision.evidence');
	t.equal(run.record.exit_code, 2);
	t.match(run.stderr, /already exists/);
	t.notOk(existsSync(evidence), 'no evidence folder was started');
});
