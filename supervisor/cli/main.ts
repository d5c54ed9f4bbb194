import {Command, CommanderError} from 'commander';
import {usageExit} from './exit-codes.js';

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
	cartridge: async () => (await import('./cartridge.js')).registerCartridge,
};

const program = new Command('hlab')
	.description('harness-lab: a local experiment supervisor for agent harnesses')
	.showHelpAfterError('(run hlab --help for usage)')
	.exitOverride();

const named = process.argv[2] ?? '';
for (const name of named in commands ? [named] : Object.keys(commands)) (await commands[name]!())(program);

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
