import {copyFile, mkdir, rm} from 'node:fs/promises';
import type {Command, OptionValues} from 'commander';
import type {ExperimentCandidate, ExperimentLayout} from '../supervisor/experiment/index.js';
import {UsageError} from '../supervisor/input-error.js';
import {failedExit} from './exit-codes.js';
import {positiveInteger} from './parse-units.js';
import {absolutePath} from './path-option.js';
import {attemptStopWords, listenForStop} from './stop-signals.js';
import {compareMode} from './eval/compare.js';
import {freezeMode} from './eval/freeze.js';
import {sharedFlags} from './eval/shared-flags.js';

const collectPath = (value: string, previous: string[] = []): string[] => [...previous, absolutePath(value)];

/**
 * `hlab experiment`: the four steps of docs/experiments.md in one command and one folder, each through the code of the
 * step it stands for: `eval --freeze` (unless `--plan`), `eval --plan` for the baseline and each candidate, `eval --compare`.
 */
export function registerExperiment(program: Command): void {
	const command = program
		.command('experiment')
		.description('freeze a plan (or take --plan), run the baseline and each candidate, compare and write the page, all in one new folder (--out)');
	command.optionsGroup('The experiment:')
		.option('--out <dir>', 'the new folder every step writes into (default: experiments/<time>)', absolutePath)
		.option('--plan <plan.json>', 'run this frozen plan instead of freezing one (its exact bytes are copied to DIR/plan.json)', absolutePath)
		.option('--candidate <file.ts>', 'a single-file candidate (repeat for several: each is compared with the baseline, Holm\'s correction across them)', collectPath)
		.option('--candidate-host <exe>', 'a host executable candidate (repeatable)', collectPath)
		.option('--keep-workdirs', 'keep task workspaces in the evidence')
		.option('--threads <n>', 'worker threads the in-process tasks share (default: the available cores, at most the frozen concurrency)');
	command.optionsGroup('Freezing (as hlab eval --freeze; not with --plan):');
	const freezeFlags = addedFlags(command, cmd => freezeMode.own!.add(sharedFlag('selects the tasks').add(cmd)));
	sharedFlag('names the configuration a plan is frozen or run with').add(command);
	command.optionsGroup('Options:');
	command.action(async (flags: OptionValues) => {
		process.exitCode = await experiment(flags, command, freezeFlags);
	});
}

async function experiment(flags: OptionValues, command: Command, freezeFlags: string[]): Promise<number> {
	// The engines are loaded when the experiment runs, not by its --help (bench/README.md, the test suite).
	const [{readPlanFile, reportSummary}, {checkCandidates, experimentLayout, runSides, verdictLine}] = await Promise.all([import('../supervisor/attempt/index.js'), import('../supervisor/experiment/index.js')]);
	const candidates: ExperimentCandidate[] = [
		...((flags['candidate'] as string[] | undefined) ?? []).map(path => ({kind: 'file' as const, path})),
		...((flags['candidateHost'] as string[] | undefined) ?? []).map(path => ({kind: 'host' as const, path})),
	];
	const given = freezeFlags.filter(key => command.getOptionValueSource(key) === 'cli');
	if (flags['plan'] !== undefined && given.length > 0) throw new UsageError(`--plan runs a frozen plan; ${given.map(flagName).join(', ')} ${given.length === 1 ? 'is' : 'are'} frozen into a plan: give ${given.length === 1 ? 'it' : 'them'} without --plan`);
	const threads = flags['threads'] === undefined ? null : positiveInteger(flags['threads'] as string, '--threads');
	const layout = experimentLayout((flags['out'] as string | undefined) ?? null, candidates);
	await checkCandidates(layout);
	// A plan that cannot be read is bad input before the folder exists.
	if (flags['plan'] !== undefined) await readPlanFile(flags['plan'] as string);
	const stop = new AbortController();
	const stopListening = listenForStop({words: experimentStopWords, stop});
	try {
		await mkdir(layout.out, {recursive: true});
		await planStep(flags, command, layout).catch(async (error: unknown) => {
			// A freeze that refuses its flags leaves no folder to refuse the next try.
			await rm(layout.out, {recursive: true, force: true});
			throw error;
		});
		const sides = await runSides(layout, {
			signal: stop.signal, keepWorkdirs: flags['keepWorkdirs'] === true, configPath: (flags['config'] as string | undefined) ?? null, threads,
			show: (dir, report) => void process.stdout.write(`${reportSummary(dir, report)}\n`),
			say: line => void process.stdout.write(`\n${line}\n`),
		});
		const stopped = sides.stopped ?? (stop.signal.aborted ? 'before the comparison' : null);
		if (stopped !== null) {
			process.stderr.write(`hlab: the experiment stopped ${stopped}; no decision; what was written stays in ${layout.out}\n`);
			return failedExit;
		}
		process.stdout.write(`\ncompare: hlab eval --compare ${sides.reports.join(',')} --decision-output ${layout.decision}\n`);
		const exit = await compareMode.run({compare: sides.reports, decisionOutput: layout.decision}, command);
		process.stdout.write(`\n${await verdictLine(layout)}; exit ${exit}\n`);
		return exit;
	} finally {
		stopListening();
	}
}

/** The plan: frozen into the folder as `eval --freeze DIR/plan.json` does it, or the given plan's exact bytes. */
async function planStep(flags: OptionValues, command: Command, layout: ExperimentLayout): Promise<void> {
	if (flags['plan'] !== undefined) {
		await copyFile(flags['plan'] as string, layout.plan);
		process.stdout.write(`plan: ${flags['plan'] as string} copied to ${layout.plan}\n`);
		return;
	}
	process.stdout.write(`freeze: hlab eval --freeze ${layout.plan}\n`);
	await freezeMode.run({...flags, freeze: layout.plan}, command);
}

const experimentStopWords = {
	...attemptStopWords,
	first: `${attemptStopWords.first}; no further side starts and nothing is compared`,
};

function sharedFlag(why: string): (typeof sharedFlags)[number] {
	return sharedFlags.find(group => group.why === why)!;
}

/** The attribute names of the options `add` declares. */
function addedFlags(command: Command, add: (command: Command) => Command): string[] {
	const before = command.options.length;
	add(command);
	return command.options.slice(before).map(option => option.attributeName());
}

const flagName = (key: string): string => `--${key.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`)}`;
