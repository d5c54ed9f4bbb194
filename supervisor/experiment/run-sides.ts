import {existsSync} from 'node:fs';
import {checkCandidateFile, runAttempt, type AttemptOptions} from '../attempt/index.js';
import type {Report} from '../attempt/report/report-schema.js';
import {ExperimentError, type ExperimentLayout} from './experiment-layout.js';

export interface SidesOptions extends Pick<AttemptOptions, 'keepWorkdirs' | 'configPath' | 'threads'> {
	/** Stops the experiment: the attempt running is interrupted (its report written), no further one starts. */
	signal: AbortSignal;
	/** Each attempt's summary as it ends, and what the experiment does next. */
	show: (dir: string, report: Report) => void;
	say: (line: string) => void;
}

export interface Sides {
	/** The report.json of the baseline, then of each candidate that ran. */
	reports: string[];
	/** Null when every side ran to its end; else the step the experiment stopped at. */
	stopped: string | null;
}

/** Every candidate compiled (or its host found) before anything is written: a broken one is one line, not a baseline's worth of waiting. */
export async function checkCandidates(layout: ExperimentLayout): Promise<void> {
	for (const candidate of layout.candidates) {
		if (candidate.kind === 'host' && !existsSync(candidate.path)) throw new ExperimentError('no_candidate', `--candidate-host ${candidate.path} does not exist`);
		await checkCandidateFile({planPath: layout.plan, artifacts: candidate.dir, candidatePath: candidate.kind === 'file' ? candidate.path : null, candidateHost: candidate.kind === 'host' ? candidate.path : null, keepWorkdirs: false, configPath: null});
	}
}

/** The baseline, then each candidate, one attempt each under the experiment's plan, exactly as `hlab eval --plan` runs them. */
export async function runSides(layout: ExperimentLayout, options: SidesOptions): Promise<Sides> {
	const sides = [{label: 'baseline', dir: layout.baseline, candidate: null}, ...layout.candidates.map(candidate => ({label: `candidate ${candidate.label}`, dir: candidate.dir, candidate}))];
	const reports: string[] = [];
	for (const side of sides) {
		if (options.signal.aborted) return {reports, stopped: `before the ${side.label}`};
		options.say(`${side.label}: hlab eval --plan ${layout.plan} --artifacts ${side.dir}${side.candidate === null ? '' : ` --${side.candidate.kind === 'file' ? 'candidate' : 'candidate-host'} ${side.candidate.path}`}`);
		const {dir, report} = await runAttempt({
			planPath: layout.plan, artifacts: side.dir,
			candidatePath: side.candidate?.kind === 'file' ? side.candidate.path : null,
			candidateHost: side.candidate?.kind === 'host' ? side.candidate.path : null,
			keepWorkdirs: options.keepWorkdirs, configPath: options.configPath, threads: options.threads ?? null, signal: options.signal,
		});
		options.show(dir, report);
		reports.push(`${dir}/report.json`);
		if (report.completion === 'interrupted') return {reports, stopped: `in the ${side.label} (${dir}: hlab eval --resume ${dir} runs the rest of it)`};
	}
	return {reports, stopped: null};
}
