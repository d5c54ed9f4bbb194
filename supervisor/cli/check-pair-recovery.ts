import {existsSync} from 'node:fs';
import {Option, type Command} from 'commander';
import {runPairRecoveryCheck} from '../../checks/pair-recovery/run-check.js';
import {itemLine, reportCheck} from './check-report.js';
import {fail} from './exit-codes.js';

/** `hlab check pair-recovery`, a subcommand of `hlab check`. */
export function registerPairRecoveryCheck(check: Command): void {
	check
		.command('pair-recovery')
		.description('run hlab pair against synthetic eval executables that crash or hang, cancel and kill the pair, and verify pair.json keeps finished tasks, fails unfinished ones and never shrinks the denominator (no model call)')
		.requiredOption('--output <dir>', 'a new directory for result.json and the pairs')
		.option('--json', 'print result.json instead of a summary')
		.addOption(new Option('--disable-ledger-sync', 'test-only: run the pair without its ledger copy, to show the check catches it').hideHelp())
		.action(async (flags: {output: string; json?: boolean; disableLedgerSync?: boolean}) => {
			if (existsSync(flags.output)) return fail(`output directory ${flags.output} already exists; choose a new one`);
			const result = await runPairRecoveryCheck({outputDir: flags.output, disableLedgerSync: flags.disableLedgerSync});
			reportCheck('pair-recovery', flags.output, result, flags.json, result.scenarios.map(scenario => {
				const tasks = Object.entries(scenario.tasks).map(([side, count]) => `${side} ${count.passed}/${scenario.denominator} recorded`).join(', ');
				return itemLine(scenario, 18, `${String(scenario.pair_status).padEnd(11)} ${tasks}`);
			}));
		});
}
