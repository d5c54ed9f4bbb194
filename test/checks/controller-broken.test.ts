import {mkdtemp} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {runControllerCheck} from '../../checks/controller/run-check.js';
import {brokenHlab, checkoutHlab, controllerPlan, plainPlan} from './controller-fixtures.js';

checkNoLeaks(t);

t.test('the controller check detects a compare that trusts the reported verdict and overwrites decisions', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-controller-broken-'));
	const plan = await controllerPlan(root);
	const result = await runControllerCheck({hlab: await brokenHlab(root), plan, outputDir: join(root, 'broken')});
	t.equal(result.passed, false);
	const problems = Object.fromEntries(result.steps.map(step => [step.name, step.problems.join('\n')]));
	t.match(problems['fabricated-verdict'], /fabricated success verdict was accepted/);
	t.match(problems['edited-candidate'], /never be overwritten|was changed/);
	t.match(problems['rescore-failed'], /re-score failed was accepted/);
	t.match(problems['honest-control'], /kept no controller calls/);
});

t.test('a plan without a controller fails the check', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-controller-plain-'));
	const result = await runControllerCheck({hlab: await checkoutHlab(), plan: await plainPlan(root), outputDir: join(root, 'plain')});
	t.equal(result.passed, false);
	t.match(result.steps[0]!.problems[0], /no pinned controller/);
});
