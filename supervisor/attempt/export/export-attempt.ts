import {existsSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {trajectoryFile, writeTaskTrajectory} from '../../export-formats/index.js';
import {InputError} from '../../input-error.js';
import {readAttemptRecord} from '../report/attempt-evidence.js';
import type {LedgerRecord} from '../report/report-schema.js';
import {readLedger} from '../task-core/ledger.js';
import {openAttemptTraces, type TraceOptions} from './attempt-traces.js';

/** DIR is no recorded attempt: `hlab export` says so in one line. */
export class NotAnAttemptError extends InputError {
	readonly reason = 'not_an_attempt';
}

/** What `hlab export atif` did, task folder by task folder (relative to the evidence directory). */
export interface TrajectoryExport {
	written: string[];
	/** Already had one: a trajectory written with the attempt is sealed with it, and stays as it is. */
	kept: string[];
	/** No message to make one of (the task never reached the model). */
	none: string[];
}

/** Writes `trajectory.json` for every recorded task of an existing attempt that has none (evidence older than the format). */
export async function exportAttemptTrajectories(dir: string): Promise<TrajectoryExport> {
	const {attemptId, records} = await recordedTasks(dir);
	const done: TrajectoryExport = {written: [], kept: [], none: []};
	for (const record of records) {
		const relDir = taskDirOf(record);
		const taskDir = join(dir, relDir);
		if (existsSync(join(taskDir, trajectoryFile))) done.kept.push(relDir);
		else if (writeTaskTrajectory(taskDir, `${attemptId}/${relDir.split('/').pop()}`, record.result.usage) === null) done.none.push(relDir);
		else done.written.push(relDir);
	}
	return done;
}

/** Sends every recorded task of an existing attempt as a trace; `problem` is the collector's one line, if it failed. */
export async function exportAttemptTraces(dir: string, options: TraceOptions): Promise<{tasks: number; problem: string | null}> {
	const {attemptId, records} = await recordedTasks(dir);
	const attempt = await readAttemptRecord(dir);
	let problem: string | null = null;
	const traces = await openAttemptTraces(options, {attempt_id: attemptId, plan_digest: attempt?.plan_digest ?? 'unknown', side: attempt?.side ?? 'unknown'}, line => {
		problem = line;
	});
	for (const record of records) traces.recorded(record.result, join(dir, taskDirOf(record)), new Date(record.recorded_at));
	await traces.close();
	return {tasks: records.length, problem};
}

/** The ledger's records: what the attempt recorded, in the order it did. */
async function recordedTasks(dir: string): Promise<{attemptId: string; records: LedgerRecord[]}> {
	const {records} = await readLedger(join(dir, 'ledger.jsonl'));
	if (records.length === 0) throw new NotAnAttemptError(`${dir} has no recorded task (no ledger.jsonl records): it is no attempt's evidence directory`);
	return {attemptId: records[0]!.attempt_id, records};
}

function taskDirOf(record: LedgerRecord): string {
	const result = record.result.evidence.result;
	if (result === undefined) throw new NotAnAttemptError(`the ledger's record of ${record.result.task_id} names no result.json`);
	return dirname(result);
}
