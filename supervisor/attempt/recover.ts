import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {isStillRunning} from '../../process/process-identity.js';
import {readStat} from '../../process/proc-table.js';
import {AttemptRecord} from './attempt-record.js';
import {taskDirName} from '../evidence/evidence-dir.js';
import {killMarked} from '../../process/kill-marked.js';
import {readLedger} from './ledger.js';
import {readPlanFile} from './read-plan.js';
import {Report, reportSchema, type TaskResult} from './report-schema.js';
import {totalsOf} from './totals.js';
import {InputError} from '../input-error.js';

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
 * every other task of the denominator fails as `unfinished`; surviving processes of the attempt are ended first.
 */
export async function recoverAttempt(path: string): Promise<Recovery> {
	const dir = resolve(path);
	const {plan} = await readPlanFile(join(dir, 'plan.json')).catch((error: Error) => {
		throw new RecoveryError('not_an_attempt', `${dir} is not an attempt's evidence directory: ${error.message}`);
	});
	if (existsSync(join(dir, 'report.json'))) throw new RecoveryError('already_reported', `${dir} already has a report.json; the attempt finished and needs no recovery`);
	const attempt = await readAttempt(dir);
	if (attempt !== null && attempt.supervisor.start_time !== null) {
		const supervisor = {pid: attempt.supervisor.pid, startTime: attempt.supervisor.start_time, comm: ''};
		if (isStillRunning(supervisor) && readStat(supervisor.pid)?.startTime === attempt.supervisor.start_time) {
			throw new RecoveryError('still_running', `the attempt's supervisor (pid ${attempt.supervisor.pid}) is still running; stop it before recovering`);
		}
	}
	const killed = attempt === null ? [] : await killMarked(attempt.process_marker);
	const ledger = await readLedger(join(dir, 'ledger.jsonl'));
	const byIndex = new Map<number, TaskResult>();
	for (const record of ledger.records) {
		const result = record.result;
		// Only records that belong to this attempt and to its frozen denominator count.
		if ((attempt === null || record.attempt_id === attempt.attempt_id) && plan.task_ids[result.index] === result.task_id) byIndex.set(result.index, result);
	}
	const tasks = plan.task_ids.map((id, index): TaskResult => byIndex.get(index) ?? {
		index, task_id: id, status: 'failed', reason: 'unfinished',
		message: `the attempt ended before this task was recorded; any runtime state is kept in ${taskDirName(index, id, plan.task_ids.length)}/runtime-state`,
		grade: null, outcome: null, usage: null, wall_ms: null, evidence: {},
	});
	const problems = ['the attempt ended without a report; this report was rebuilt from its ledger'];
	if (ledger.unreadable.length > 0) problems.push(`ledger lines ${ledger.unreadable.join(', ')} could not be read`);
	if (killed.length > 0) problems.push(`processes of the attempt were still running and were killed: ${killed.join(', ')}`);
	const admissionFailed = tasks.some(task => task.reason === 'admission');
	const report = Report.parse({
		schema: reportSchema,
		attempt_id: attempt?.attempt_id ?? 'unknown',
		side: attempt?.side ?? 'baseline',
		timing: attempt?.host ? 'supervised-host' : 'in-process',
		host: attempt?.host ?? null,
		plan_digest: plan.plan_digest,
		completion: 'recovered',
		admission: {admitted: !admissionFailed, differences: admissionFailed ? ['admission was rejected (see the ledger records)'] : []},
		candidate: attempt?.candidate ?? null,
		task_ids: plan.task_ids,
		tasks,
		totals: totalsOf(tasks),
		passed: false,
		problems,
		started_at: attempt?.started_at ?? new Date().toISOString(),
		ended_at: new Date().toISOString(),
		attempt_wall_ms: null,
	});
	await writeFile(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`, {flag: 'wx'});
	return {report, killed};
}

async function readAttempt(dir: string): Promise<AttemptRecord | null> {
	try {
		return AttemptRecord.parse(JSON.parse(await readFile(join(dir, 'attempt.json'), 'utf8')));
	} catch {
		// An attempt killed before attempt.json was written has no processes of its own yet.
		return null;
	}
}
