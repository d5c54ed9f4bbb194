import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {isStillRunning} from '../../../process/process-identity.js';
import {readHostWall} from '../../host/index.js';
import {readStat} from '../../../process/proc-table.js';
import {AttemptRecord} from '../stages/attempt-record.js';
import {taskDirName} from '../../evidence/evidence-dir.js';
import {exportLeftRuntime, keptRuntimeFolder} from '../../evidence/runtime-root.js';
import {killMarked} from '../../../process/kill-marked.js';
import {buildReport, writeReport} from './build-report.js';
import {failedResult} from '../task-core/failed-result.js';
import {readLedger, type LedgerRead} from '../task-core/ledger.js';
import {readPlanFile} from '../stages/read-plan.js';
import type {Plan} from '../../plan/plan-schema.js';
import type {Report, TaskResult} from './report-schema.js';
import {InputError} from '../../input-error.js';

export class RecoveryError extends InputError {
	constructor(readonly reason: 'not_an_attempt' | 'already_reported' | 'still_running', message: string) {
		super(message);
	}
}

export interface Recovery {
	report: Report;
	/** Pids of the attempt's processes that were still running and were killed. */
	killed: number[];
}

/**
 * Rebuilds the report of an attempt that ended without one: recorded tasks keep their ledger record,
 * every other task of the denominator fails as `unfinished`; surviving processes of the attempt are ended first,
 * then the runtime state left on the attempt's runtime root is exported into the task folders.
 */
export async function recoverAttempt(path: string): Promise<Recovery> {
	const dir = resolve(path);
	const {plan} = await readPlanFile(join(dir, 'plan.json')).catch((error: Error) => {
		throw new RecoveryError('not_an_attempt', `${dir} is not an attempt's evidence directory: ${error.message}`);
	});
	if (existsSync(join(dir, 'report.json'))) throw new RecoveryError('already_reported', `${dir} already has a report.json; the attempt finished and needs no recovery`);
	const attempt = await readAttempt(dir);
	refuseRunningSupervisor(attempt);
	const killed = attempt === null ? [] : await killMarked(attempt.process_marker);
	// With its processes gone, what the tasks left on the runtime root (a tmpfs) moves into their task folders.
	const left = exportLeftRuntime(dir);
	const ledger = await readLedger(join(dir, 'ledger.jsonl'));
	const results = recordedResults(plan, attempt, ledger);
	const admissionFailed = results.some(task => task.reason === 'admission');
	const report = buildReport({
		attemptId: attempt?.attempt_id ?? 'unknown',
		side: attempt?.side ?? 'baseline',
		timing: attempt?.host ? 'supervised-host' : 'in-process',
		placement: attempt?.placement ?? 'local',
		queue: attempt?.queue ?? null,
		host: attempt?.host ?? null,
		// Without attempt.json nobody recorded what ran: never contained.
		integrity: attempt?.integrity ?? {label: 'trusted-code', reasons: ['attempt-record-missing']},
		plan,
		completion: 'recovered',
		admission: {admitted: !admissionFailed, differences: admissionFailed ? ['admission was rejected (see the ledger records)'] : []},
		candidate: attempt?.candidate ?? null,
		results,
		problems: [...recoveryProblems(ledger, killed), ...left.problems],
		leaks: null,
		startedAt: attempt?.started_at ?? new Date().toISOString(),
		endedAt: new Date().toISOString(),
		wallMs: null,
		// A host attempt's launches recorded their spans as they ran, so its whole wall time survives the crash.
		hostWall: attempt?.host ? await readHostWall(dir, plan.task_ids) : undefined,
	});
	await writeReport(dir, report);
	return {report, killed};
}

function refuseRunningSupervisor(attempt: AttemptRecord | null): void {
	if (attempt === null || attempt.supervisor.start_time === null) return;
	const supervisor = {pid: attempt.supervisor.pid, startTime: attempt.supervisor.start_time, comm: ''};
	if (isStillRunning(supervisor) && readStat(supervisor.pid)?.startTime === attempt.supervisor.start_time) {
		throw new RecoveryError('still_running', `the attempt's supervisor (pid ${attempt.supervisor.pid}) is still running; stop it before recovering`);
	}
}

/** The denominator from the ledger: a task keeps its record, every other one fails as unfinished. */
function recordedResults(plan: Plan, attempt: AttemptRecord | null, ledger: LedgerRead): TaskResult[] {
	const byIndex = new Map<number, TaskResult>();
	for (const {attempt_id, result} of ledger.records) {
		// Only records that belong to this attempt and to its frozen denominator count.
		if ((attempt === null || attempt_id === attempt.attempt_id) && plan.task_ids[result.index] === result.task_id) byIndex.set(result.index, result);
	}
	return plan.task_ids.map((id, index) => byIndex.get(index) ?? failedResult(index, id, {
		reason: 'unfinished',
		message: `the attempt ended before this task was recorded; any runtime state is kept in ${taskDirName(index, id, plan.task_ids.length)}/${keptRuntimeFolder}`,
	}));
}

function recoveryProblems(ledger: LedgerRead, killed: number[]): string[] {
	const problems = ['the attempt ended without a report; this report was rebuilt from its ledger'];
	if (ledger.unreadable.length > 0) problems.push(`ledger lines ${ledger.unreadable.join(', ')} could not be read`);
	if (killed.length > 0) problems.push(`processes of the attempt were still running and were killed: ${killed.join(', ')}`);
	return problems;
}

async function readAttempt(dir: string): Promise<AttemptRecord | null> {
	try {
		return AttemptRecord.parse(JSON.parse(await readFile(join(dir, 'attempt.json'), 'utf8')));
	} catch {
		// An attempt killed before attempt.json was written has no processes of its own yet.
		return null;
	}
}
