import {Command, CommanderError} from 'commander';
import {commands, namedCommand, registerOutlines} from './command-list.js';
import {failOn, usageExit} from './exit-codes.js';

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
	else failOn(error);
}
