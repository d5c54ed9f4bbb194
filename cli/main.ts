import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {Command, CommanderError} from 'commander';
import {installRoot} from '../files/install-root.js';
import {commands, namedCommand, registerOutlines} from './command-list.js';
import {failOn, usageExit} from './exit-codes.js';

const program = new Command('hlab')
	.description('harness-lab: a local experiment supervisor for agent harnesses')
	.version(installedVersion(), '-V, --version', 'print the installed version')
	.exitOverride()
	// Commander's own refusals are bad input too: one `hlab: ...` line like every other.
	.configureOutput({outputError: (text, write) => write(`hlab: ${text.replace(/^error: /, '').trim()} (run hlab --help for usage)\n`)});

// A named command loads its module alone; without one, the help and commander's refusals need only the outlines.
const named = namedCommand(process.argv);
if (named === null) registerOutlines(program);
else (await commands[named]!.load())(program);

/** The version of the package this code runs from. */
function installedVersion(): string {
	return (JSON.parse(readFileSync(join(installRoot, 'package.json'), 'utf8')) as {version: string}).version;
}

try {
	await program.parseAsync(process.argv);
} catch (error) {
	// Help and version are successful exits; everything else commander rejects is a usage error (it printed why).
	if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : usageExit;
	else failOn(error);
}
