import {admitAttempt} from './stages/admit-attempt.js';
import {auditAttempt} from './stages/audit-leaks.js';
import type {AttemptOptions} from './stages/attempt-options.js';
import {closeAttemptHost} from './stages/attempt-host.js';
import {closeAttempt, openAttempt} from './stages/open-attempt.js';
import {measureSupervisor, recordAttempt} from './stages/record-attempt.js';
import {reportAttempt} from './report/report-attempt.js';
import type {Report} from './report/report-schema.js';
import {runTasks} from './stages/run-tasks.js';
import {startServices} from './stages/start-services.js';

export type {AttemptOptions} from './stages/attempt-options.js';

export interface AttemptOutcome {
	dir: string;
	report: Report;
}

/**
 * Runs one attempt of a plan into a new evidence directory and returns its report. Each stage is one function;
 * a stage that refuses the attempt does not throw, it hands on the reason every task of the denominator fails with.
 */
export async function runAttempt(options: AttemptOptions): Promise<AttemptOutcome> {
	const attempt = await openAttempt(options);
	try {
		const admission = await admitAttempt(attempt);
		const measuring = measureSupervisor(admission.result.packages);
		const services = await startServices(attempt, admission);
		try {
			await recordAttempt(attempt, services, measuring);
			// What runs now (the provider, the host session) is the attempt's own; anything started later is a task's.
			attempt.scope.knowServices();
			const run = await runTasks(attempt, admission, services);
			const hostProblems = await closeAttemptHost(services.host, attempt);
			const final = await auditAttempt(attempt, run);
			const report = await reportAttempt(attempt, admission, services, run, {problems: [...hostProblems, ...final.problems], leaks: final.leaks});
			return {dir: attempt.dir, report};
		} finally {
			await services.close();
		}
	} finally {
		await closeAttempt(attempt);
	}
}
