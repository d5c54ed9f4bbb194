import {existsSync} from 'node:fs';
import {Command, Option} from 'commander';
import {runCleanupCheck} from '../../checks/process-cleanup/run-check.js';
import {registerControllerCheck} from './check-controller.js';
import {registerPairRecoveryCheck} from './check-pair-recovery.js';
import {itemLine, reportCheck} from './check-report.js';
import {fail} from './exit-codes.js';

export function registerCheck(program: Command): void {
	const check = program.command('check').description('self-checks of the framework that make no model call');
	check
		.command('process-cleanup')
		.description('run synthetic process trees through the supervisor and verify in /proc that none survives')
		.requiredOption('--output <dir>', 'a new directory for result.json and per-scenario records')
		.option('--json', 'print result.json instead of a summary')
		.addOption(new Option('--disable-sweep', 'test-only: run without the sweep, to show the check catches it').hideHelp())
		.action(async (flags: {output: string; json?: boolean; disableSweep?: boolean}) => {
			if (existsSync(flags.output)) return fail(`output directory ${flags.output} already exists; choose a new one`);
			const result = await runCleanupCheck({outputDir: flags.output, disableSweep: flags.disableSweep});
			reportCheck('process-cleanup', flags.output, result, flags.json, [`containment backend: ${result.containment}`, ...result.scenarios.map(scenario => itemLine(scenario, 34,
				scenario.killed.length === 0 ? 'nothing to kill' : `killed ${scenario.killed.map(entry => `${entry.pid}:${entry.how}`).join(' ')}`))]);
		});
	registerPairRecoveryCheck(check);
	registerControllerCheck(check);
}
