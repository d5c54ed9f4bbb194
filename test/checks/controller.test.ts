import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join, relative} from 'node:path';
import t from 'tap';
import {ControllerCheckResult} from '../../checks/controller/result-schema.js';
import {hlabLauncher} from '../../checks/hlab-command.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

t.test('the controller check passes against this checkout\'s compare, built, frozen and run as a user runs them', async t => {
	// From a working directory of the caller's, every path option relative to it.
	const root = await mkdtemp(join(tmpdir(), 'hlab-controller-check-'));
	t.teardown(() => rm(root, {recursive: true, force: true}));
	// The check starts bin/hlab.js by its `#!/usr/bin/env node`, which must find this Node.
	const env = {PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`};
	const run = async (args: string[]) => {
		const result = await hlab(args, {cwd: root, env, timeoutMs: 240_000});
		t.equal(result.record.exit_code, 0, `hlab ${args.join(' ')}: ${result.stdout}${result.stderr}`);
	};
	await run(['controller', 'build', '--out', 'controller']);
	await run(['controller', 'verify', 'controller/controller.json']);
	await run(['eval', '--experiment-controller', './controller/controller.json', '--freeze', 'plan.json']);
	await run(['check', 'controller', '--hlab', relative(root, hlabLauncher), '--plan', 'plan.json', '--output', './check']);
	const out = join(root, 'check');
	const result = ControllerCheckResult.parse(JSON.parse(await readFile(join(out, 'result.json'), 'utf8')));
	for (const step of result.steps) t.ok(step.passed, `${step.name}: ${step.problems.join('; ') || 'ok'}`);
	t.equal(result.passed, true);
	t.same(result.steps.map(step => step.name), ['controller-plan', 'honest-control', 'fabricated-verdict', 'rescore-failed', 'edited-candidate']);
	t.match(result.label, /framework verification.*not a model experiment/);
	t.equal(JSON.parse(await readFile(join(out, 'decisions', 'fabricated.json'), 'utf8')).decision, 'reject');
	t.ok(JSON.parse(await readFile(join(out, 'decisions', 'decision-2.json'), 'utf8')).decision, 'the edited candidate got its own decision');
	const unscorable = JSON.parse(await readFile(join(out, 'decisions', 'unscorable.json'), 'utf8'));
	t.equal(unscorable.decision, 'reject', 'a side whose re-score failed is rejected');
	t.equal(unscorable.decided_by, 'controller');
	t.ok(unscorable.controller?.decision, 'the pinned controller was asked and its answer recorded');
});
