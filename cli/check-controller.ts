import {existsSync} from 'node:fs';
import type {Command} from 'commander';
import {UsageError} from '../supervisor/input-error.js';
import {reportCheck, requireNewOutput} from './check-report.js';
import {absolutePath, outputPath} from './path-option.js';

/** `hlab check controller`, a subcommand of `hlab check`. */
export function registerControllerCheck(check: Command): void {
	check
		.command('controller')
		.description('with a controller plan and synthetic execution observations (no model call), verify that a fabricated success verdict cannot override the independent grader, that a side whose re-score failed cannot win whatever the controller answers, and that an edited candidate gets a new durable decision without overwriting the old one')
		.requiredOption('--hlab <exe>', 'the hlab executable whose compare is checked', absolutePath)
		.requiredOption('--plan <plan.json>', 'a plan frozen with --experiment-controller', absolutePath)
		.requiredOption('--out, --output <dir>', 'a new directory for result.json, observations and decisions (--output: alias of --out)', outputPath)
		.option('--json', 'print result.json instead of a summary')
		.action(async (flags: {hlab: string; plan: string; output: string; json?: boolean}) => {
			requireNewOutput(flags.output);
			if (!existsSync(flags.hlab)) throw new UsageError(`--hlab ${flags.hlab} does not exist`);
			const [{hlabProblem}, {runControllerCheck}, {controllerCheckSummary}] = await Promise.all([import('../checks/controller/probe-hlab.js'), import('../checks/controller/run-check.js'), import('../checks/controller/summary.js')]);
			const problem = await hlabProblem(flags.hlab);
			if (problem !== null) throw new UsageError(problem);
			const result = await runControllerCheck({hlab: flags.hlab, plan: flags.plan, outputDir: flags.output});
			reportCheck(result, flags.json, controllerCheckSummary(result, flags.output));
		});
}
