import {existsSync} from 'node:fs';
import {basename, join, resolve} from 'node:path';
import {InputError} from '../input-error.js';

export class ExperimentError extends InputError {
	constructor(readonly reason: 'out_exists' | 'no_candidate', message: string) {
		super(message);
	}
}

/** A candidate of the experiment: a single-file plugin (`--candidate`) or a host executable (`--candidate-host`). */
export interface ExperimentCandidate {
	kind: 'file' | 'host';
	path: string;
}

/** Where each step of an experiment writes, inside its one folder: the names a person running the steps by hand would use. */
export interface ExperimentLayout {
	out: string;
	plan: string;
	baseline: string;
	candidates: Array<ExperimentCandidate & {label: string; dir: string}>;
	/** The decision; the comparison page is beside it (`decision.html`), as `eval --compare --decision-output` writes it. */
	decision: string;
}

/**
 * The folder and its parts: `plan.json`, `baseline/`, `candidate/` (or `candidate-<name>/` for each of several),
 * `decision.json` and `decision.html`. A folder that exists is refused, like an evidence directory: nothing is mixed.
 */
export function experimentLayout(out: string | null, candidates: ExperimentCandidate[], cwd = process.cwd()): ExperimentLayout {
	if (candidates.length === 0) throw new ExperimentError('no_candidate', 'an experiment needs at least one --candidate FILE or --candidate-host EXE to compare with the baseline');
	const dir = resolve(cwd, out ?? join('experiments', stamp()));
	if (existsSync(dir)) throw new ExperimentError('out_exists', `${dir} already exists; an experiment writes a new folder (--out DIR)`);
	const labels = candidateLabels(candidates);
	return {
		out: dir,
		plan: join(dir, 'plan.json'),
		baseline: join(dir, 'baseline'),
		candidates: candidates.map((candidate, index) => ({...candidate, label: labels[index]!, dir: join(dir, candidates.length === 1 ? 'candidate' : `candidate-${labels[index]}`)})),
		decision: join(dir, 'decision.json'),
	};
}

/** Each candidate's name without its extension; a name that repeats gets its place (`-2`, `-3`). */
function candidateLabels(candidates: ExperimentCandidate[]): string[] {
	const seen = new Map<string, number>();
	return candidates.map(candidate => {
		const name = basename(candidate.path).replace(/\.(m?[jt]s)$/, '').replace(/[^\w.-]/g, '_') || 'candidate';
		const count = (seen.get(name) ?? 0) + 1;
		seen.set(name, count);
		return count === 1 ? name : `${name}-${count}`;
	});
}

/** A folder name that sorts by time and is valid everywhere (no colons). */
function stamp(): string {
	return new Date().toISOString().replaceAll(':', '-').replace(/\..*$/, '');
}
