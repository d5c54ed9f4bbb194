import {resolve} from 'node:path';
import type {CandidateSnapshot} from '../../../engine/candidate/snapshot.js';
import {prepareCandidate} from './candidate-evidence.js';
import type {TaskFailure} from '../task-core/failed-result.js';
import type {AttemptContext} from './attempt-context.js';

export interface LoadedCandidate {
	snapshot: CandidateSnapshot | null;
	/** A candidate that does not compile, or that the composition has no slot for, fails the attempt. */
	failure: TaskFailure | null;
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
