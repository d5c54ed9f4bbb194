import type {Admission} from '../stages/admit-attempt.js';
import {readHostWall} from '../../host/index.js';
import {hostRef} from '../stages/attempt-host.js';
import {buildReport, writeReport} from './build-report.js';
import {candidateIdentity} from '../stages/candidate-evidence.js';
import type {AttemptContext} from '../stages/attempt-context.js';
import type {AttemptLeaks, Report} from './report-schema.js';
import type {TaskRun} from '../stages/run-tasks.js';
import type {Services} from '../stages/start-services.js';

/** The last write of an attempt: its results, sums and verdict in `report.json`, whose presence means it finished. */
export async function reportAttempt(attempt: AttemptContext, admission: Admission, services: Services, run: TaskRun, closing: {problems: string[]; leaks: AttemptLeaks}): Promise<Report> {
	const report = buildReport({
		attemptId: attempt.attemptId,
		side: attempt.side,
		// A host attempt is timed as supervised processes even when its host could not be measured.
		timing: (attempt.options.candidateHost ?? null) === null ? services.executor.timing : 'supervised-host',
		host: hostRef(services.host),
		plan: attempt.plan,
		completion: attempt.signal.aborted ? 'interrupted' : 'finished',
		admission: {admitted: admission.result.admitted, differences: admission.result.differences},
		candidate: candidateIdentity(services.candidate),
		results: run.results,
		problems: [...run.problems, ...closing.problems],
		leaks: closing.leaks,
		startedAt: attempt.startedAt.toISOString(),
		endedAt: new Date().toISOString(),
		wallMs: performance.now() - attempt.t0,
		hostWall: services.host === null ? undefined : await readHostWall(attempt.dir, attempt.plan.task_ids),
	});
	await writeReport(attempt.dir, report);
	attempt.log.info({passed: report.passed, totals: report.totals}, 'attempt finished');
	return report;
}
