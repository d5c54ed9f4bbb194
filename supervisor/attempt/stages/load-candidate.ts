import {resolve} from 'node:path';
import {compileCandidate} from '../../../engine/index.js';
import type {CandidateSnapshot} from '../../../engine/candidate/snapshot.js';
import {InputError} from '../../input-error.js';
import {prepareCandidate} from './candidate-evidence.js';
import {checkOptions, type AttemptOptions} from './attempt-options.js';
import type {TaskFailure} from '../task-core/failed-result.js';
import type {AttemptContext} from './attempt-context.js';

export interface LoadedCandidate {
	snapshot: CandidateSnapshot | null;
	/** A candidate that does not compile, or that the composition has no slot for, fails the attempt. */
	failure: TaskFailure | null;
}

/** A `--candidate` file that cannot be read or compiled: bad input, found before any evidence directory exists. */
export class CandidateInputError extends InputError {
	readonly reason = 'candidate_invalid';
}

/**
 * Compiles `--candidate` once before the attempt opens, so that a missing or broken file is one line and exit 2
 * instead of an evidence directory whose every task failed; the attempt compiles it again into its evidence.
 */
export async function checkCandidateFile(options: AttemptOptions): Promise<void> {
	// A combination of flags that cannot run is named first, as the attempt itself would.
	checkOptions(options);
	const file = options.candidatePath;
	if (file === null) return;
	try {
		await compileCandidate(resolve(options.cwd ?? process.cwd(), file));
	} catch (error) {
		throw new CandidateInputError(`${(error as Error).message} (no evidence directory was created)`);
	}
}

/** Compiles `--candidate` into the evidence directory, unless the attempt is already refused for an earlier reason. */
export async function loadCandidate(attempt: AttemptContext, refused: TaskFailure | null): Promise<LoadedCandidate> {
	const file = attempt.options.candidatePath;
	if (refused !== null || file === null) return {snapshot: null, failure: null};
	const prepared = await prepareCandidate(resolve(attempt.options.cwd ?? process.cwd(), file), attempt.dir);
	if (!prepared.ok) return {snapshot: null, failure: {reason: 'init', message: prepared.message}};
	return {snapshot: prepared.snapshot, failure: slotFailure(attempt.plan.composition.modules)};
}

function slotFailure(modules: string[]): TaskFailure | null {
	if (modules.includes('candidate')) return null;
	return {reason: 'init', message: `loaded-module check failed: the composition [${modules.join(', ')}] has no candidate slot, so the candidate was not loaded (there is no fallback)`};
}
