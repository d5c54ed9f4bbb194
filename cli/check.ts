import {Command, Option} from 'commander';
import {registerControllerCheck} from './check-controller.js';
import {registerPairRecoveryCheck} from './check-pair-recovery.js';
import {reportCheck, requireNewOutput} from './check-report.js';
import {outputPath} from './path-option.js';

export function registerCheck(program: Command): void {
	const check = program.command('check').description('self-checks of the framework that make no model call');
	check
		.command('process-cleanup')
		.description('run synthetic process trees through the supervisor and verify in /proc that none survives')
		.requiredOption('--out, --output <dir>', 'a new directory for result.json and per-scenario records (--output: alias of --out)', outputPath)
		.option('--json', 'print result.json instead of a summary')
		.addOption(new Option('--disable-sweep', 'test-only: run without the sweep, to show the check catches it').hideHelp())
		.action(async (flags: {output: string; json?: boolean; disableSweep?: boolean}) => {
			requireNewOutput(flags.output);
			// Each check's engine is loaded when it runs, not by `hlab check --help`.
			const [{runCleanupCheck}, {cleanupCheckSummary}] = await Promise.all([import('../checks/process-cleanup/run-check.js'), import('../checks/process-cleanup/summary.js')]);
			const result = await runCleanupCheck({outputDir: flags.output, disableSweep: flags.disableSweep});
			reportCheck(result, flags.json, cleanupCheckSummary(result, flags.output));
		});
	registerPairRecoveryCheck(check);
	registerControllerCheck(check);
}
