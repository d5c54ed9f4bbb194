import {admit, type AdmissionResult} from '../plan/admission.js';
import type {TaskFailure} from './failed-result.js';
import type {AttemptContext} from './open-attempt.js';

export interface Admission {
	result: AdmissionResult;
	/** Set when admission refused the plan: the reason every task of the denominator fails with. */
	failure: TaskFailure | null;
}

/** Recomputes every identity the plan records; a refused plan still gets a report, with the whole denominator failed. */
export async function admitAttempt(attempt: AttemptContext): Promise<Admission> {
	const result = await admit(attempt.plan, {configPath: attempt.options.configPath, cwd: attempt.options.cwd});
	attempt.log.info({admitted: result.admitted, differences: result.differences}, 'admission');
	return {result, failure: result.admitted ? null : refusal(result.differences.length)};
}

function refusal(differences: number): TaskFailure {
	return {reason: 'admission', message: `admission rejected (${differences} difference${differences > 1 ? 's' : ''}, listed in the report's admission)`};
}
