import {attemptBackendLimits, type LeakAudit} from '../../process/index.js';
import type {AttemptContext} from './open-attempt.js';
import type {AttemptLeaks, TaskResult} from './report-schema.js';

/** The attempt's processes outliving one task are ended and named, but only when no other task runs: then they are this task's. */
export async function auditTask(attempt: AttemptContext, alone: boolean): Promise<LeakAudit | null> {
	if (!alone) return null;
	const audit = await attempt.scope.audit();
	if (audit.leaked.length > 0) attempt.log.warn({leaked: audit.leaked, survivors: audit.survivors}, 'processes outlived their task and were ended');
	return audit;
}

/**
 * The final cleanup check, run before report.json is written: whatever of the attempt still runs (other than
 * the supervisor and its services) is ended and named; anything it could not end is a problem of the attempt.
 */
export async function auditAttempt(attempt: AttemptContext, results: TaskResult[]): Promise<{leaks: AttemptLeaks; problems: string[]}> {
	const final = await attempt.scope.audit();
	const backend = attempt.scope.backend;
	const leaks: AttemptLeaks = {
		backend,
		limits: attemptBackendLimits[backend],
		leaked: [
			...results.flatMap(result => (result.leak_audit?.leaked ?? []).map(leak => ({...leak, task_index: result.index}))),
			...final.leaked.map(leak => ({...leak, task_index: null})),
		],
		survivors: final.survivors,
	};
	if (final.leaked.length > 0) attempt.log.warn({leaked: final.leaked}, 'processes outlived the attempt and were ended');
	const problems = final.survivors.length === 0 ? [] : [`processes of the attempt survived its final cleanup: ${final.survivors.join(', ')}`];
	return {leaks, problems};
}
