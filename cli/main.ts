import {Command, CommanderError} from 'commander';
import {InputError} from '../supervisor/input-error.js';
import {commands, namedCommand, registerOutlines} from './command-list.js';
import {fail, failedExit, usageExit} from './exit-codes.js';

const program = new Command('hlab')
	.description('harness-lab: a local experiment supervisor for agent harnesses')
	.exitOverride()
	// Commander's own refusals are bad input too: one `hlab: ...` line like every other.
	.configureOutput({outputError: (text, write) => write(`hlab: ${text.replace(/^error: /, '').trim()} (run hlab --help for usage)\n`)});

// A named command loads its module alone; without one, the help and commander's refusals need only the outlines.
const named = namedCommand(process.argv);
if (named === null) registerOutlines(program);
else (await commands[named]!.load())(program);

try {
	await program.parseAsync(process.argv);
} catch (error) {
	// Help and version are successful exits; everything else commander rejects is a usage error (it printed why).
	if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : usageExit;
	// The one place where bad input becomes exit status 2.
	else if (error instanceof InputError) fail(error.message, usageExit);
	else fail(error instanceof Error ? error.message : String(error), failedExit);
}
