import {mkdtemp, readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {runControllerCheck} from '../../checks/controller/run-check.js';
import {checkoutHlab, controllerPlan} from './controller-fixtures.js';

checkNoLeaks(t);

t.test('the controller check passes against this checkout\'s compare', async t => {
	const hlab = await checkoutHlab();
	const root = await mkdtemp(join(tmpdir(), 'hlab-controller-check-'));
	const plan = await controllerPlan(root);
	const out = join(root, 'check');
	const result = await runControllerCheck({hlab, plan, outputDir: out});
	for (const step of result.steps) t.ok(step.passed, `${step.name}: ${step.problems.join('; ') || 'ok'}`);
	t.equal(result.passed, true);
	t.same(result.steps.map(step => step.name), ['controller-plan', 'honest-control', 'fabricated-verdict', 'rescore-failed', 'edited-candidate']);
	const written = JSON.parse(await readFile(join(out, 'result.json'), 'utf8'));
	t.match(written.label, /framework verification.*not a model experiment/);
	t.equal(JSON.parse(await readFile(join(out, 'decisions', 'fabricated.json'), 'utf8')).decision, 'reject');
	t.ok(JSON.parse(await readFile(join(out, 'decisions', 'decision-2.json'), 'utf8')).decision, 'the edited candidate got its own decision');
	const unscorable = JSON.parse(await readFile(join(out, 'decisions', 'unscorable.json'), 'utf8'));
	t.equal(unscorable.decision, 'reject', 'a side whose re-score failed is rejected');
	t.equal(unscorable.decided_by, 'controller');
	t.ok(unscorable.controller?.decision, 'the pinned controller was asked and its answer recorded');
});
