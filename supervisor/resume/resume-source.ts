import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {readAttemptRecord, readPlanFile, recoverAttempt} from '../attempt/index.js';
import {Report} from '../attempt/report/report-schema.js';
import {holderRuns, readAttemptLock} from '../evidence/attempt-lock.js';
import type {Plan} from '../plan/plan-schema.js';
import {ResumeError} from './resume-error.js';

type AttemptRecord = NonNullable<Awaited<ReturnType<typeof readAttemptRecord>>>;

/** The attempt to resume, as it stands once it is closed: its plan file, its record (null: it died before writing one). */
export interface ResumeSource {
	dir: string;
	planPath: string;
	plan: Plan;
	record: AttemptRecord | null;
}

/**
 * The earlier attempt, closed: a live one is refused (its supervisor still writes it), a finished one has nothing to
 * resume, and one that ended without a report is recovered first, so its leftover processes are ended and its runtime
 * state kept, as `--recover` would.
 */
export async function openResumeSource(dir: string, say: (line: string) => void): Promise<ResumeSource> {
	const planPath = join(dir, 'plan.json');
	if (!existsSync(planPath)) throw new ResumeError('not_an_attempt', `${dir} is not an attempt's evidence directory (no plan.json): nothing to resume`);
	const lock = readAttemptLock(dir);
	if (lock !== null && holderRuns(lock)) throw new ResumeError('still_running', `the attempt's supervisor (pid ${lock.pid}) is still running in ${dir}; stop it (or wait for it) before resuming`);
	const report = await readReport(dir);
	if (report?.completion === 'finished') {
		throw new ResumeError('nothing_to_resume', `${dir} finished (${report.totals.passed}/${report.totals.tasks} passed): there is nothing to resume; its report.json stands`);
	}
	if (report === null) {
		const {killed} = await recoverAttempt(dir);
		say(`${dir} ended without a report: recovered first (its report.json rebuilt from the ledger${killed.length > 0 ? `; ${killed.length} leftover process${killed.length === 1 ? '' : 'es'} ended` : ''})`);
	}
	const {plan} = await readPlanFile(planPath);
	return {dir, planPath, plan, record: await readAttemptRecord(dir)};
}

/** DIR's report.json, or null when it has none; one that cannot be read is no finished attempt, and recovery says why. */
async function readReport(dir: string): Promise<Report | null> {
	const text = await readFile(join(dir, 'report.json'), 'utf8').catch(() => null);
	if (text === null) return null;
	try {
		return Report.parse(JSON.parse(text));
	} catch (error) {
		throw new ResumeError('not_an_attempt', `${dir}/report.json cannot be read as a report (${(error as Error).message.split('\n')[0]}): nothing is taken from it`);
	}
}
