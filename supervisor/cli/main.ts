import {Command, CommanderError} from 'commander';
import {InputError} from '../input-error.js';
import {fail, failedExit, usageExit} from './exit-codes.js';

type Register = (program: Command) => void;

/** Each command's module, loaded only when that command runs: `hlab supervise` need not load the engine. */
const commands: Record<string, () => Promise<Register>> = {
	eval: async () => (await import('./eval.js')).registerEval,
	agent: async () => (await import('./agent.js')).registerAgent,
	plugin: async () => (await import('./plugin.js')).registerPlugin,
	controller: async () => (await import('./controller.js')).registerController,
	supervise: async () => (await import('./supervise.js')).registerSupervise,
	check: async () => (await import('./check.js')).registerCheck,
	'snapshot-source': async () => (await import('./snapshot-source.js')).registerSnapshotSource,
	'build-host': async () => (await import('./build-host.js')).registerBuildHost,
	pair: async () => (await import('./pair.js')).registerPair,
	'host-worker': async () => (await import('./host-worker.js')).registerHostWorker,
	report: async () => (await import('./report.js')).registerReport,
	search: async () => (await import('./search.js')).registerSearch,
};

const program = new Command('hlab')
	.description('harness-lab: a local experiment supervisor for agent harnesses')
	.exitOverride()
	// Commander's own refusals are bad input too: one `hlab: ...` line like every other.
	.configureOutput({outputError: (text, write) => write(`hlab: ${text.replace(/^error: /, '').trim()} (run hlab --help for usage)\n`)});

const named = process.argv[2] ?? '';
for (const name of named in commands ? [named] : Object.keys(commands)) (await commands[name]!())(program);

try {
	await program.parseAsync(process.argv);
} catch (error) {
	// Help and version are successful exits; everything else commander rejects is a usage error (it printed why).
	if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : usageExit;
	// The one place where bad input becomes exit status 2.
	else if (error instanceof InputError) fail(error.message, usageExit);
	else fail(error instanceof Error ? error.message : String(error), failedExit);
}
