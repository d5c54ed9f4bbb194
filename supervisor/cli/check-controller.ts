import {existsSync} from 'node:fs';
import type {Command} from 'commander';
import {runControllerCheck} from '../../checks/controller/run-check.js';
import {itemLine, reportCheck} from './check-report.js';
import {fail} from './exit-codes.js';

/** `hlab check controller`, a subcommand of `hlab check`. */
export function registerControllerCheck(check: Command): void {
	check
		.command('controller')
		.description('with a controller plan and synthetic execution observations (no model call), verify that a fabricated success verdict cannot override the independent grader and that an edited candidate gets a new durable decision without overwriting the old one')
		.requiredOption('--hlab <exe>', 'the hlab executable whose compare is checked')
		.requiredOption('--plan <plan.json>', 'a plan frozen with --experiment-controller')
		.requiredOption('--output <dir>', 'a new directory for result.json, observations and decisions')
		.option('--json', 'print result.json instead of a summary')
		.action(async (flags: {hlab: string; plan: string; output: string; json?: boolean}) => {
			if (existsSync(flags.output)) return fail(`output directory ${flags.output} already exists; choose a new one`);
			if (!existsSync(flags.hlab)) return fail(`--hlab ${flags.hlab} does not exist`);
			let result;
			try {
				result = await runControllerCheck({hlab: flags.hlab, plan: flags.plan, outputDir: flags.output});
			} catch (error) {
				const reason = (error as {reason?: string}).reason;
				if (reason === 'plan_invalid') return fail((error as Error).message);
				throw error;
			}
			reportCheck('controller', flags.output, result, flags.json, result.steps.map(step => itemLine(step, 20, step.description)));
		});
}
