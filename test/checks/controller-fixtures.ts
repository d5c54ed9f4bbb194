import {chmod, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {hlabLauncher} from '../../checks/hlab-command.js';
import {buildSampleController} from '../../supervisor/controller/index.js';
import {buildPlan, writePlan} from '../../supervisor/plan/freeze.js';
import {scriptedModel} from '../../engine/provider-config.js';

/** This checkout's `hlab` launcher, as a user runs it; its `#!/usr/bin/env node` must find this Node. */
export async function checkoutHlab(): Promise<string> {
	process.env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
	return hlabLauncher;
}

/** A plan frozen with the sample experiment controller pinned. */
export async function controllerPlan(root: string): Promise<string> {
	await buildSampleController(join(root, 'controller'));
	const plan = await buildPlan({provider: {kind: 'scripted', model: scriptedModel}, selection: 'all', maxSteps: 4, deadlineMs: 60_000, policyPath: null, controllerPath: join(root, 'controller', 'controller.json'), configPath: null, cwd: root});
	const path = join(root, 'plan.json');
	await writePlan(path, plan);
	return path;
}

/** A plan of one built-in task, with no controller. */
export async function plainPlan(root: string): Promise<string> {
	const plan = await buildPlan({provider: {kind: 'scripted', model: scriptedModel}, selection: 'test_failure_fix', maxSteps: 4, deadlineMs: 60_000, policyPath: null, controllerPath: null, configPath: null});
	const path = join(root, 'plain-plan.json');
	await writePlan(path, plan);
	return path;
}

/** An hlab whose compare accepts whatever the report says and overwrites earlier decisions. */
export async function brokenHlab(root: string): Promise<string> {
	const broken = join(root, 'broken-hlab.mjs');
	await writeFile(broken, `#!${process.execPath}
import {writeFileSync} from 'node:fs';
const args = process.argv.slice(2);
const output = args[args.indexOf('--decision-output') + 1];
const [, candidate] = args[args.indexOf('--compare') + 1].split(',');
writeFileSync(output, JSON.stringify({decision: 'accept', checks: [{rule: 'verification', satisfied: true, message: 'trusted the report'}], candidate: {report: candidate}}));
`);
	await chmod(broken, 0o755);
	return broken;
}
