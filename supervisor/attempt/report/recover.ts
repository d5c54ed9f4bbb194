import {existsSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {readAgentWall} from '../../agent/index.js';
import {readHostWall} from '../../host/index.js';
import {holderRuns, readAttemptLock, releaseAttemptLock, type AttemptLock} from '../../evidence/attempt-lock.js';
import {removeDeadOpenings, taskDirName} from '../../evidence/evidence-dir.js';
import {exportLeftRuntime, keptRuntimeFolder} from '../../evidence/runtime-root.js';
import {killMarked} from '../../../process/kill-marked.js';
import {buildReport, writeReport} from './build-report.js';
import {failedResult} from '../task-core/failed-result.js';
import type {VerifiedLedger} from '../task-core/ledger-chain.js';
import {readAttemptRecord, verifyAttemptLedger} from './attempt-evidence.js';
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
	refuseNeverStarted(dir);
	const {plan} = await readPlanFile(join(dir, 'plan.json')).catch((error: Error) => {
		throw new RecoveryError('not_an_attempt', `${dir} is not an attempt's evidence directory: ${error.message}`);
	});
	const lock = readAttemptLock(dir);
	refuseRunningSupervisor(lock);
	const attempt = await readAttemptRecord(dir);
	// The lock names the marker from the first instant: processes started before attempt.json are ended too.
	const marker = attempt?.process_marker ?? lock?.process_marker ?? null;
	if (existsSync(join(dir, 'report.json'))) await refuseReported(dir, lock, marker);
	const killed = marker === null ? [] : await killMarked(marker);
	// With its processes gone, what the tasks left on the runtime root (a tmpfs) moves into their task folders.
	const left = await exportLeftRuntime(dir);
	const ledger = await verifyAttemptLedger(dir, attempt);
	const results = recordedResults(plan, ledger);
	const admissionFailed = results.some(task => task.reason === 'admission');
	const report = buildReport({
		attemptId: attempt?.attempt_id ?? lock?.attempt_id ?? 'unknown',
		side: attempt?.side ?? 'baseline',
		timing: attempt?.host || attempt?.agent ? 'supervised-host' : 'in-process',
		placement: attempt?.placement ?? 'local',
		queue: attempt?.queue ?? null,
		host: attempt?.host ?? null,
		agent: attempt?.agent ?? null,
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
		hostWall: attempt?.host ? await readHostWall(dir, plan.task_ids) : attempt?.agent ? await readAgentWall(dir, plan.task_ids, attempt.agent) : undefined,
	});
	await writeReport(dir, report);
	releaseAttemptLock(dir);
	return {report, killed};
}

/** A reported attempt needs no report; if its supervisor died before closing it (the lock is still there), recovery closes it. */
async function refuseReported(dir: string, lock: AttemptLock | null, marker: string | null): Promise<never> {
	let closed = '';
	if (lock !== null) {
		const killed = marker === null ? [] : await killMarked(marker);
		const left = await exportLeftRuntime(dir);
		releaseAttemptLock(dir);
		closed = ` (its supervisor died before closing it: ${killed.length} process${killed.length === 1 ? '' : 'es'} ended, runtime state of ${left.moved.length} task${left.moved.length === 1 ? '' : 's'} moved into the evidence${left.problems.length > 0 ? `; ${left.problems.join('; ')}` : ''})`;
	}
	throw new RecoveryError('already_reported', `${dir} already has a report.json; the attempt finished and needs no recovery${closed}`);
}

/** A directory that is not there never held an attempt (it appears whole); openings a dead supervisor left of it go. */
function refuseNeverStarted(dir: string): void {
	if (existsSync(dir)) return;
	const removed = removeDeadOpenings(dir);
	const left = removed > 0 ? ` (${removed} unfinished opening${removed === 1 ? '' : 's'} of it, left by a supervisor that died, removed)` : '';
	throw new RecoveryError('not_an_attempt', `${dir} does not exist: no attempt started there${left}; run the plan again`);
}

/** The lock's holder still runs: the attempt is live, and recovering it would end its processes and take its runtime state. */
function refuseRunningSupervisor(lock: AttemptLock | null): void {
	if (lock !== null && holderRuns(lock)) {
		throw new RecoveryError('still_running', `the attempt's supervisor (pid ${lock.pid}) is still running; stop it before recovering`);
	}
}

/**
 * The denominator from the ledger's trusted records: an entry keeps its sealed record; an entry a record names that the
 * seal does not vouch for fails as `evidence`, and nothing of that record is taken; every other entry fails as unfinished.
 */
function recordedResults(plan: Plan, ledger: VerifiedLedger): TaskResult[] {
	return plan.task_ids.map((id, index) => {
		const distrusted = ledger.distrusted.get(index);
		if (distrusted !== undefined) return failedResult(index, id, {reason: 'evidence', message: `its ledger record cannot be trusted: ${distrusted}`});
		const result = ledger.trusted.get(index)?.result;
		// Only records of the frozen denominator count.
		if (result !== undefined && result.task_id === id) return result;
		return failedResult(index, id, {
			reason: 'unfinished',
			message: `the attempt ended before this task was recorded; any runtime state is kept in ${taskDirName(index, id, plan.task_ids.length)}/${keptRuntimeFolder}`,
		});
	});
}

function recoveryProblems(ledger: VerifiedLedger, killed: number[]): string[] {
	const problems = ['the attempt ended without a report; this report was rebuilt from its ledger'];
	if (ledger.seal === 'unsealed') problems.push('the ledger is unsealed (written before the seal): its records were taken unverified');
	problems.push(...ledger.problems);
	if (ledger.torn.length > 0) problems.push(`ledger line ${ledger.torn.join(', ')} is torn (the attempt ended while it was written)`);
	if (killed.length > 0) problems.push(`processes of the attempt were still running and were killed: ${killed.join(', ')}`);
	return problems;
}
