import {UsageError} from '../../supervisor/input-error.js';
import {failedExit, okExit} from '../exit-codes.js';
import {positiveInteger} from '../parse-units.js';
import {absolutePath} from '../path-option.js';
import {attemptStopWords, listenForStop} from '../stop-signals.js';
import type {EvalMode} from './eval-mode.js';
import {traceOptionsOf} from '../otlp-flags.js';
import {sideOf, type AttemptFlags} from './run.js';
import {outOf} from './out-flag.js';
import {printResult} from './print-result.js';

interface ResumeFlags extends AttemptFlags {
	resume: string;
}

/** `hlab eval --resume DIR`: a new attempt of DIR's plan that keeps DIR's sealed finished records and runs the rest. */
export const resumeMode: EvalMode = {
	name: 'resume',
	addTrigger: command => command.option('--resume <dir>', 'a new attempt of a crashed or interrupted attempt\'s plan: its sealed finished records are verified and taken, the rest of the denominator runs (into --out, default DIR-resumed)', absolutePath),
	own: null,
	run: async (flags: ResumeFlags) => resume(flags),
};

async function resume(flags: ResumeFlags): Promise<number> {
	if (flags.calibrate === true) throw new UsageError('--calibrate runs a plan\'s baseline twice from the start; it does not resume');
	const side = sideOf(flags);
	const interrupt = new AbortController();
	const stopListening = listenForStop({words: attemptStopWords, stop: interrupt});
	try {
		// The engines are loaded by the mode that runs, not by every `hlab eval`.
		const [{reportSummary}, {resumeAttempt}] = await Promise.all([import('../../supervisor/attempt/index.js'), import('../../supervisor/resume/index.js')]);
		const {dir, report} = await resumeAttempt({
			from: flags.resume, artifacts: outOf(flags, '--artifacts', flags.artifacts) ?? null,
			candidatePath: flags.candidate ?? null, candidateHost: flags.candidateHost ?? null, candidateCartridge: flags.candidateCartridge ?? null, agentSpec: flags.agent ?? null,
			...(side === undefined ? {} : {side}),
			keepWorkdirs: flags.keepWorkdirs === true, configPath: flags.config ?? null, signal: interrupt.signal, quiet: flags.json === true,
			threads: flags.threads === undefined ? null : positiveInteger(flags.threads, '--threads'), traces: traceOptionsOf(flags),
			say: line => void process.stderr.write(`hlab: ${line}\n`),
		});
		printResult(flags, reportSummary(dir, report), {evidence: dir, report: `${dir}/report.json`, passed: report.passed, completion: report.completion, totals: report.totals, resumed_from: report.resumed_from ?? []});
		return report.passed ? okExit : failedExit;
	} finally {
		stopListening();
	}
}
