import {Command, CommanderError} from 'commander';
import {registerEval} from '../../supervisor/cli/eval.js';

// A CLI entry with only `hlab eval`, so end-to-end tests run the command as a real separate process.
const program = new Command('hlab').exitOverride();
registerEval(program);
try {
	await program.parseAsync(process.argv);
} catch (error) {
	if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : 2;
	else {
		process.stderr.write(`hlab: ${error instanceof Error ? error.message : String(error)}\n`);
		process.exitCode = 1;
	}
}
