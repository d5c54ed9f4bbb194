import type {Admission} from '../stages/admit-attempt.js';
import {readAgentWall} from '../../agent/index.js';
import {readHostWall} from '../../host/index.js';
import {hostRef} from '../stages/attempt-host.js';
import {buildReport, writeReport} from './build-report.js';
import {candidateIdentity} from '../stages/candidate-evidence.js';
import type {AttemptContext} from '../stages/attempt-context.js';
import type {AttemptLeaks, Report, Timing} from './report-schema.js';
import type {TaskRun} from '../stages/run-tasks.js';
import type {Services} from '../stages/start-services.js';

/** The last write of an attempt: its results, sums and verdict in `report.json`, whose presence means it finished. */
export async function reportAttempt(attempt: AttemptContext, admission: Admission, services: Services, run: TaskRun, closing: {problems: string[]; leaks: AttemptLeaks}): Promise<Report> {
	const report = buildReport({
		attemptId: attempt.attemptId,
		side: attempt.side,
		timing: timingOf(attempt, services),
		placement: services.placement.kind,
		queue: services.placement.kind === 'queue' ? services.placement.remote.queue : null,
		host: hostRef(services.host),
		agent: services.agent?.identity ?? null,
		integrity: services.integrity,
		plan: attempt.plan,
		completion: attempt.signal.aborted ? 'interrupted' : 'finished',
		admission: {admitted: admission.result.admitted, differences: admission.result.differences},
		candidate: candidateIdentity(services.candidate),
		results: run.results,
		problems: [...services.watch.problems(), ...run.problems, ...closing.problems],
		leaks: closing.leaks,
		startedAt: attempt.startedAt.toISOString(),
		endedAt: new Date().toISOString(),
		wallMs: performance.now() - attempt.t0,
		hostWall: await supervisedWall(attempt, services),
		resumedDirs: run.carried === null ? undefined : {[run.carried.from.attempt_id]: run.carried.from.dir},
	});
	await writeReport(attempt.dir, report);
	attempt.log.info({passed: report.passed, totals: report.totals}, 'attempt finished');
	return report;
}

/** A supervised side's whole-attempt wall time from the supervisor's own records (host or agent); none for in-process sides. */
async function supervisedWall(attempt: AttemptContext, services: Services): Promise<{attempt_wall_ms: number | null; task_sum_ms: number | null} | undefined> {
	if (services.host !== null) return readHostWall(attempt.dir, attempt.plan.task_ids);
	if (services.agent !== null) return readAgentWall(attempt.dir, attempt.plan.task_ids, services.agent.identity);
	return undefined;
}

/** A host or agent attempt is timed as supervised processes even when its host or agent was refused; a queued one as its nodes execute. */
function timingOf(attempt: AttemptContext, services: Services): Timing {
	if ((attempt.options.candidateHost ?? null) !== null || (attempt.options.agentSpec ?? null) !== null || services.agent !== null || (attempt.plan.agent !== undefined && attempt.side === 'baseline')) return 'supervised-host';
	return services.placement.kind === 'local' ? services.placement.executor.timing : services.placement.remote.timing;
}
