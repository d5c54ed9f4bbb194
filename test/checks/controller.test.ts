import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
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

t.test('check controller names an --hlab that meets a Node older than 22 on PATH as such, in one line', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-controller-old-node-'));
	t.teardown(() => rm(root, {recursive: true, force: true}));
	// An older Node first on PATH, as on a machine whose system Node is 20: this Node, made to say it is v20.
	const oldNode = join(root, 'old-node');
	await mkdir(oldNode);
	const pretend = 'data:text/javascript,Object.defineProperty(process,"version",{value:"v20.20.2"});Object.defineProperty(process.versions,"node",{value:"20.20.2"})';
	await writeFile(join(oldNode, 'node'), `#!/bin/sh\nexec '${process.execPath}' --import '${pretend}' "$@"\n`, {mode: 0o755});
	const frozen = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: root});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	const checked = await hlab(['check', 'controller', '--hlab', hlabLauncher, '--plan', 'plan.json', '--output', 'check'], {cwd: root, env: {PATH: `${oldNode}:${process.env.PATH ?? ''}`}});
	t.equal(checked.record.exit_code, 2, 'bad input, not four failed checks', {stdout: checked.stdout});
	t.match(checked.stderr, /^hlab: --hlab \S+ runs on a Node older than 22 \(Node\.js 22 or newer is required \(this is v20\.20\.2\)[^\n]*\); put Node 22 first on PATH[^\n]*\n$/);
	t.equal(checked.stdout, '');
	t.notOk(existsSync(join(root, 'check')), 'no output folder');
});
