import {Command, CommanderError} from 'commander';
import {registerSupervise} from './supervise.js';
import {registerCheck} from './check.js';
import {usageExit} from './exit-codes.js';

const program = new Command('hlab')
	.description('harness-lab: a local experiment supervisor for agent harnesses')
	.showHelpAfterError('(run hlab --help for usage)')
	.exitOverride();

registerSupervise(program);
registerCheck(program);

try {
	await program.parseAsync(process.argv);
} catch (error) {
	if (error instanceof CommanderError) {
		// Help and version are successful exits; everything else commander rejects is a usage error.
		process.exitCode = error.exitCode === 0 ? 0 : usageExit;
	} else {
		process.stderr.write(`hlab: ${error instanceof Error ? error.message : String(error)}\n`);
		process.exitCode = 1;
	}
}
