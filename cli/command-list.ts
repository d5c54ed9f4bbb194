import {type Command, Help} from 'commander';

type Register = (program: Command) => void;

interface CommandEntry {
	/** The command's module, loaded only when that command runs: `hlab supervise` need not load the engine. */
	load: () => Promise<Register>;
	/** How the top-level help names it, e.g. `eval [options]`: what commander derives from the loaded command. */
	term: string;
	/** The loaded command's own description, word for word (test/cli/command-list.test.ts holds them equal). */
	description: string;
	/** Started by the supervisor, not by people: left out of `hlab --help` (it still answers `hlab host-worker --help`). */
	internal?: true;
}

/** Every command, with what `hlab --help` shows of it, so that the help loads none of their dependencies. */
export const commands: Record<string, CommandEntry> = {
	eval: {
		load: async () => (await import('./eval/index.js')).registerEval,
		term: 'eval [options]',
		description: 'freeze a plan, run an attempt of it, compare two reports, recover a crashed attempt, resume one, or list tasks',
	},
	experiment: {
		load: async () => (await import('./experiment.js')).registerExperiment,
		term: 'experiment [options]',
		description: 'freeze a plan (or take --plan), run the baseline and each candidate, compare and write the page, all in one new folder (--out)',
	},
	agent: {
		load: async () => (await import('./agent.js')).registerAgent,
		term: 'agent [options]',
		description: 'run one built-in task (or one cartridge case) with the agent engine outside an experiment, then grade the workspace independently',
	},
	agents: {
		load: async () => (await import('./agents.js')).registerAgents,
		term: 'agents',
		description: 'third-party agent specs and the store of their pinned packages: validate a spec, install its package, verify the installed copy',
	},
	plugin: {
		load: async () => (await import('./plugin.js')).registerPlugin,
		term: 'plugin',
		description: 'single-file candidate plugins: validate them, describe the SDK they build on',
	},
	controller: {
		load: async () => (await import('./controller.js')).registerController,
		term: 'controller',
		description: 'experiment controllers: build one (the sample, or your own with --entry), check a pinned identity',
	},
	supervise: {
		load: async () => (await import('./supervise.js')).registerSupervise,
		term: 'supervise [options] <command...>',
		description: 'run any command in its own process group under a deadline and byte limits, then end its whole tree',
	},
	check: {
		load: async () => (await import('./check.js')).registerCheck,
		term: 'check',
		description: 'self-checks of the framework that make no model call',
	},
	'snapshot-source': {
		load: async () => (await import('./snapshot-source.js')).registerSnapshotSource,
		term: 'snapshot-source [options]',
		description: 'archive the exact source state of a checkout: its commit, the complete patch against it (git diff HEAD --binary) and every untracked, not-ignored file, with a manifest of digests',
	},
	'build-host': {
		load: async () => (await import('./build-host.js')).registerBuildHost,
		term: 'build-host [options]',
		description: 'build a host executable of this checkout into a new folder: DIR/hlab (a launcher of its own copy of the code, run by this machine\'s Node) and DIR/build.json (commit, dirty flag, file digests, node path and digest, overall digest)',
	},
	pair: {
		load: async () => (await import('./pair.js')).registerPair,
		term: 'pair [options]',
		description: 'run a baseline and a candidate executable one after the other, each in its own process group under a wall-clock limit, keeping a task ledger (pair.json) that survives crashes; complete reports are compared by the baseline executable',
	},
	'host-worker': {
		load: async () => (await import('./host-worker.js')).registerHostWorker,
		term: 'host-worker',
		description: 'serve one host-worker request (protocol v1): read the task request on stdin, run it with this build\'s engine, write one JSON line on stdout (used by the supervisor; not for people)',
		internal: true,
	},
	'queue-node': {
		load: async () => (await import('./queue-node.js')).registerQueueNode,
		term: 'queue-node [options]',
		description: 'serve attempts coordinated through Redis (hlab eval --queue) as one queue node: admit each attempt\'s plan against this installation first, then run its tasks as a local attempt does',
	},
	plan: {
		load: async () => (await import('./plan.js')).registerPlan,
		term: 'plan',
		description: 'size an evaluation plan before freezing it: how many trials per task a pass-rate change needs',
	},
	report: {
		load: async () => (await import('./report.js')).registerReport,
		term: 'report [options] [dir]',
		description: 'write one self-contained HTML page for an attempt (its evidence directory) or a comparison',
	},
	search: {
		load: async () => (await import('./search.js')).registerSearch,
		term: 'search',
		description: 'harness search: propose, verify, run and evaluate harness candidates under a spending envelope',
	},
	verify: {
		load: async () => (await import('./verify.js')).registerVerify,
		term: 'verify [options] <dir>',
		description: "check one attempt's evidence end to end: its plan, its sealed ledger's MAC chain and the files each record seals, and report.json against both; exit 1 when any check does not hold",
	},
	export: {
		load: async () => (await import('./export.js')).registerExport,
		term: 'export',
		description: "a recorded attempt in other tools' formats: ATIF trajectories (docs/atif.md), OpenTelemetry traces over OTLP/HTTP (docs/otlp.md)",
	},
	ls: {
		load: async () => (await import('./ls.js')).registerLs,
		term: 'ls [options] [dir]',
		description: 'list past attempts and decisions under a folder, one line each: kind, path, plan, side, candidate, status or verdict, when',
	},
	gc: {
		load: async () => (await import('./gc.js')).registerGc,
		term: 'gc [options] [dir...]',
		description: "remove hlab's leftovers: temporary folders, runtime roots of attempts whose supervisor is gone, the digest cache, pinned copies no evidence links to; never evidence unless named (gc DIR...), never what a live process holds",
	},
	init: {
		load: async () => (await import('./init.js')).registerInit,
		term: 'init <kind> <dir>',
		description: 'write a working skeleton of a plugin (single-file candidate), a cartridge or an experiment controller into a new or empty folder, with a README whose commands validate it and run it once offline',
	},
	'mock-provider': {
		load: async () => (await import('./mock-provider.js')).registerMockProvider,
		term: 'mock-provider [options]',
		description: 'serve an OpenAI-compatible test endpoint on 127.0.0.1 until SIGINT or SIGTERM: constant answers, 429 storms with Retry-After, connection resets, slow bodies or garbage JSON; prints its URL first',
	},
	cartridge: {
		load: async () => (await import('./cartridge.js')).registerCartridge,
		term: 'cartridge',
		description: 'a harness as a folder: describe it, evaluate its cases, replay a captured run, diff two versions',
	},
};

/** The command a command line runs: `hlab eval …` and `hlab help eval` name eval; anything else names none. */
export function namedCommand(argv: string[]): string | null {
	const [first, second] = argv.slice(2);
	const name = first === 'help' ? second : first;
	return name !== undefined && Object.hasOwn(commands, name) ? name : null;
}

/** Registers every command by its term and description alone: enough for the top-level help and for commander's refusals. */
export function registerOutlines(program: Command): void {
	for (const [name, entry] of Object.entries(commands)) program.command(name, {hidden: entry.internal === true}).description(entry.description);
	program.configureHelp({
		subcommandTerm(this: Help, command: Command): string {
			return commands[command.name()]?.term ?? Help.prototype.subcommandTerm.call(this, command);
		},
	});
}
