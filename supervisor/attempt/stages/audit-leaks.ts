import {attemptBackendLimits, type LeakAudit, type LeakedProcess} from '../../../process/index.js';
import type {AttemptContext} from './attempt-context.js';
import type {AttemptLeaks, TaskResult} from '../report/report-schema.js';
import type {NodeAudit} from '../task-core/task-placement.js';

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

/**
 * A queued attempt's final audit with each node's: what a node's audit names that no task's result already holds is
 * added under the node's name, what survived there and whatever went wrong there are the attempt's problems, and a node
 * whose audit did not arrive is one too (its share was never checked, which is not a pass).
 */
export function withNodeAudits(local: {leaks: AttemptLeaks; problems: string[]}, nodes: NodeAudit[]): {leaks: AttemptLeaks; problems: string[]} {
	const known = new Set(local.leaks.leaked.filter(leak => leak.task_index !== null).map(leak => `${leak.task_index}:${leak.pid}`));
	const leaked = [...local.leaks.leaked];
	const problems = [...local.problems];
	for (const audit of nodes) {
		if ('missing' in audit) {
			problems.push(`queue node ${audit.node}: its final leak audit did not arrive (${audit.missing}); what its tasks left behind there is unknown`);
			continue;
		}
		leaked.push(...audit.leaks.leaked.filter(leak => leak.task_index === null || !known.has(`${leak.task_index}:${leak.pid}`)).map(leak => ({...leak, node: audit.node})));
		if (audit.leaks.survivors.length > 0) problems.push(`queue node ${audit.node}: processes of the attempt survived its final cleanup there: ${audit.leaks.survivors.join(', ')}`);
		problems.push(...audit.problems.map(problem => `queue node ${audit.node}: ${problem}`));
	}
	const summaries = [...nodes].sort((a, b) => a.node.localeCompare(b.node)).map(audit => 'missing' in audit ? {node: audit.node, backend: null, survivors: null} : {node: audit.node, backend: audit.leaks.backend, survivors: audit.leaks.survivors});
	return {leaks: {...local.leaks, leaked, nodes: summaries}, problems};
}
