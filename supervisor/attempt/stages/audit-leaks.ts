import {attemptBackendLimits, type LeakAudit, type LeakedProcess} from '../../../process/index.js';
import type {AttemptContext} from './attempt-context.js';
import type {AttemptLeaks, TaskResult} from '../report/report-schema.js';

/**
 * The look at each task's end. What still runs is ended whenever no other task is running; it is this task's
 * only if no other task ran since the last look, otherwise it is kept as the attempt's, unattributed.
 */
export class TaskLeakWatch {
	readonly unattributed: LeakedProcess[] = [];
	#running = 0;
	#shared = false;

	constructor(private readonly attempt: AttemptContext) {}

	started(): void {
		this.#running += 1;
		if (this.#running > 1) this.#shared = true;
	}

	/** A task whose execution threw: the attempt ends, and its final audit looks. */
	abandoned(): void {
		this.#running -= 1;
	}

	/** The task's audit, or null when it never ran or its leaks cannot be told from another task's. */
	async ended(ran: boolean): Promise<LeakAudit | null> {
		try {
			if (this.#running > 1) return null;
			const audit = await this.attempt.scope.audit();
			if (audit.leaked.length > 0) this.attempt.log.warn({leaked: audit.leaked, survivors: audit.survivors}, 'processes outlived their task and were ended');
			const shared = this.#shared;
			this.#shared = false;
			if (ran && !shared) return audit;
			this.unattributed.push(...audit.leaked);
			return null;
		} finally {
			this.#running -= 1;
		}
	}
}

/**
 * The final cleanup check, run before report.json is written: whatever of the attempt still runs (other than
 * the supervisor and its services) is ended and named; anything it could not end is a problem of the attempt.
 */
export async function auditAttempt(attempt: AttemptContext, run: {results: TaskResult[]; unattributed: LeakedProcess[]}): Promise<{leaks: AttemptLeaks; problems: string[]}> {
	const final = await attempt.scope.audit();
	const backend = attempt.scope.backend;
	const leaks: AttemptLeaks = {
		backend,
		limits: attemptBackendLimits[backend],
		leaked: [
			...run.results.flatMap(result => (result.leak_audit?.leaked ?? []).map(leak => ({...leak, task_index: result.index}))),
			...[...run.unattributed, ...final.leaked].map(leak => ({...leak, task_index: null})),
		],
		survivors: final.survivors,
	};
	if (final.leaked.length > 0) attempt.log.warn({leaked: final.leaked}, 'processes outlived the attempt and were ended');
	const problems = final.survivors.length === 0 ? [] : [`processes of the attempt survived its final cleanup: ${final.survivors.join(', ')}`];
	return {leaks, problems};
}
