import {Option, type Command} from 'commander';
import {reportCheck, requireNewOutput} from './check-report.js';
import {outputPath} from './path-option.js';

/** `hlab check pair-recovery`, a subcommand of `hlab check`. */
export function registerPairRecoveryCheck(check: Command): void {
	check
		.command('pair-recovery')
		.description('run hlab pair against synthetic eval executables that crash or hang, cancel and kill the pair, and verify pair.json keeps finished tasks, fails unfinished ones and never shrinks the denominator (no model call)')
		.requiredOption('--out, --output <dir>', 'a new directory for result.json and the pairs (--output: alias of --out)', outputPath)
		.option('--json', 'print result.json instead of a summary')
		.addOption(new Option('--disable-ledger-sync', 'test-only: run the pair without its ledger copy, to show the check catches it').hideHelp())
		.action(async (flags: {output: string; json?: boolean; disableLedgerSync?: boolean}) => {
			requireNewOutput(flags.output);
			const [{runPairRecoveryCheck}, {pairRecoveryCheckSummary}] = await Promise.all([import('../checks/pair-recovery/run-check.js'), import('../checks/pair-recovery/summary.js')]);
			const result = await runPairRecoveryCheck({outputDir: flags.output, disableLedgerSync: flags.disableLedgerSync});
			reportCheck(result, flags.json, pairRecoveryCheckSummary(result, flags.output));
		});
}
