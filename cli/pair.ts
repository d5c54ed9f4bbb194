import {Option, type Command} from 'commander';
import type {PairRecord} from '../supervisor/pair/index.js';
import {failedExit, insufficientExit, okExit, reviseExit} from './exit-codes.js';
import {positiveDuration} from './parse-units.js';
import {absolutePath, outputPath} from './path-option.js';
import {listenForStop, type StopWords} from './stop-signals.js';

interface PairFlags {
	plan: string;
	baseline: string;
	sourceBaseline: string;
	candidate?: string;
	candidateHost?: string;
	sourceCandidate?: string;
	output: string;
	timeout: string;
	json?: boolean;
	disableLedgerSync?: boolean;
}

export function registerPair(program: Command): void {
	program
		.command('pair')
		.description('run a baseline and a candidate executable one after the other, each in its own process group under a wall-clock limit, keeping a task ledger (pair.json) that survives crashes; complete reports are compared by the baseline executable')
		.requiredOption('--plan <plan.json>', 'the frozen plan both sides run', absolutePath)
		.requiredOption('--baseline <exe>', 'the baseline hlab executable (e.g. a build-host launcher)', absolutePath)
		.requiredOption('--source-baseline <tar>', 'the source archive of the baseline (hlab snapshot-source)', absolutePath)
		.option('--candidate <file.ts>', 'a single-file candidate, run by the baseline executable', absolutePath)
		.option('--candidate-host <exe>', 'a rebuilt candidate hlab executable; both sides then run as supervised hosts', absolutePath)
		.option('--source-candidate <tar>', 'the source archive of the candidate host', absolutePath)
		.requiredOption('--out, --output <dir>', 'a new folder for pair.json, the inputs and both attempts (--output: alias of --out)', outputPath)
		.option('--timeout <duration>', 'wall-clock limit of each side (e.g. 90s, 3m; a bare number is seconds)', '3m')
		.option('--json', 'print pair.json')
		.addOption(new Option('--disable-ledger-sync', 'test-only: do not copy ledgers into pair.json, to show the pair-recovery check catches it').hideHelp())
		.action(async (flags: PairFlags) => {
			const timeoutS = positiveDuration(flags.timeout, '--timeout') / 1000;
			// The engine is loaded when the pair runs, not by the command's --help.
			const {pairSummary, runPair} = await import('../supervisor/pair/index.js');
			const controller = new AbortController();
			const urge = new AbortController();
			// A second signal is passed on to the running side, whose own faster stop still writes its report.
			const stopListening = listenForStop({words: pairStopWords, stop: controller, onHurry: () => urge.abort()});
			let record: PairRecord;
			try {
				record = await runPair({
					plan: flags.plan, baseline: flags.baseline, sourceBaseline: flags.sourceBaseline,
					candidateFile: flags.candidate, candidateHost: flags.candidateHost, sourceCandidate: flags.sourceCandidate,
					output: flags.output, timeoutS, signal: controller.signal, urge: urge.signal, syncLedger: !flags.disableLedgerSync,
				});
			} finally {
				stopListening();
			}
			if (flags.json) process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
			else process.stdout.write(pairSummary(record, flags.output));
			const decision = record.status === 'finished' ? record.comparison?.decision : undefined;
			process.exitCode = decision === 'accept' ? okExit : decision === 'revise' ? reviseExit : decision === 'insufficient' ? insufficientExit : failedExit;
		});
}

const pairStopWords: StopWords = {
	first: 'the running side stops as its attempt would (its report is written), then pair.json records the interruption',
	faster: 'the running side is told to stop faster; its report and pair.json are still written',
	now: 'pair.json keeps what it had; the running side wrote no report (hlab eval --recover on its attempt folder writes it)',
};
