import type {AttemptOptions} from './stages/attempt-options.js';
import {reportAttempt} from './report/report-attempt.js';
import type {Report} from './report/report-schema.js';
import {runTasks} from './stages/run-tasks.js';
import {closeTasks, recordStarted, withStartedAttempt} from './stages/started-attempt.js';

export type {AttemptOptions} from './stages/attempt-options.js';

export interface AttemptOutcome {
	dir: string;
	report: Report;
}

/**
 * Runs one attempt of a plan into a new evidence directory and returns its report. Each stage is one function;
 * a stage that refuses the attempt does not throw, it hands on the reason every task of the denominator fails with.
 */
export function runAttempt(options: AttemptOptions): Promise<AttemptOutcome> {
	return withStartedAttempt(options, async started => {
		await recordStarted(started);
		const run = await runTasks(started.attempt, started.admission, started.services);
		const closing = await closeTasks(started, run);
		const report = await reportAttempt(started.attempt, started.admission, started.services, run, closing);
		return {dir: started.attempt.dir, report};
	});
}
