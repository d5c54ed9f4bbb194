import type {Command} from 'commander';
import {failedExit, okExit} from './exit-codes.js';
import {absolutePath} from './path-option.js';

export function registerVerify(program: Command): void {
	program
		.command('verify')
		.description("check one attempt's evidence end to end: its plan, its sealed ledger's MAC chain and the files each record seals, and report.json against both; exit 1 when any check does not hold")
		.argument('<dir>', "an attempt's evidence directory", absolutePath)
		.option('--json', 'print the checks as JSON')
		.action(async (dir: string, flags: {json?: boolean}) => {
			// Loaded when the command runs, not by its --help.
			const {verificationSummary, verifyAttempt} = await import('../supervisor/compare/verify-attempt.js');
			const verification = await verifyAttempt(dir);
			process.stdout.write(flags.json ? `${JSON.stringify(verification, null, 2)}\n` : verificationSummary(verification));
			process.exitCode = verification.holds ? okExit : failedExit;
		});
}
