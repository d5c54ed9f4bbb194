import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {z} from 'zod';
import {taskDirName} from '../evidence/evidence-dir.js';
import {ProcessRecord} from '../../process/process-record.js';
import {hostWorkerCommand} from '../../workers/host-protocol.js';
import {HostAttemptRecord, HostTaskRecord} from './host-records.js';
import {attemptWall, hostDirOf} from './host-dir.js';

/** The fields of a report this needs; the report format itself belongs to the attempt runner. */
const ReportView = z.object({plan_digest: z.string(), task_ids: z.array(z.string())}).loose();

export interface SideTiming {
	report: string;
	/** The folder the records were read from: `<attempt>.host/` for a host, the evidence directory for an agent. */
	host_dir: string;
	/** The host binary's digest, or an agent's installed (else config) digest. */
	binary_digest: string;
	/** Per task, in frozen order: the supervisor's wall time from process.json, or null when the task never launched. */
	tasks: Array<{task_id: string; wall_ms: number | null}>;
	/** Sum of every task's wall time; null as soon as one task has none (it never launched): never a partial sum. */
	wall_ms: number | null;
	/** The whole attempt: first launch started to last launch ended (monotonic); null when a record has no span. */
	attempt_wall_ms: number | null;
	/** True when every task of the denominator has a process record. */
	complete: boolean;
}

export type SupervisedTiming =
	| {kind: 'supervised'; sides: [SideTiming, SideTiming]}
	/** Neither side ran a supervised host: compare uses its ordinary timings. */
	| {kind: 'unsupervised'}
	| {kind: 'refused'; reason: 'mixed_timing' | 'process_record'; message: string};

/**
 * The wall times of two attempts when both ran supervised hosts: read only from the process.json records the
 * supervisor wrote in `<attempt>.host/`, after checking each record is the launch of that attempt's measured
 * binary for that task. A pair where only one side is a supervised host is refused (`mixed_timing`), and so is
 * a supervised side whose records do not check out (`process_record`).
 */
export async function supervisedTiming(reportA: string, reportB: string, readOther: OtherSupervisedSide = async () => null): Promise<SupervisedTiming> {
	const read = await Promise.all([reportA, reportB].map(report => (existsSync(join(hostDirOf(dirname(report)), 'host.json')) ? readSide(report) : readOther(report))));
	if (read[0] === null && read[1] === null) return {kind: 'unsupervised'};
	if ((read[0] === null) !== (read[1] === null)) {
		const which = read[0] !== null ? reportA : reportB;
		const other = read[0] !== null ? reportB : reportA;
		return {kind: 'refused', reason: 'mixed_timing', message: `${which} ran supervised processes (a host or an agent) but ${other} did not; supervised and unsupervised timings are not comparable`};
	}
	for (const side of read) {
		if (typeof side === 'string') return {kind: 'refused', reason: 'process_record', message: side};
	}
	return {kind: 'supervised', sides: [read[0] as SideTiming, read[1] as SideTiming]};
}

/**
 * A side supervised otherwise than as a host (a third-party agent, read by the layer that runs it): its timing from
 * its own records, a sentence when they do not check out, or null when the side was not supervised that way.
 */
export type OtherSupervisedSide = (report: string) => Promise<SideTiming | string | null>;

async function readSide(reportPath: string): Promise<SideTiming | string> {
	const hostDir = hostDirOf(dirname(reportPath));
	let report: z.infer<typeof ReportView>;
	let host: HostAttemptRecord;
	try {
		report = ReportView.parse(JSON.parse(await readFile(reportPath, 'utf8')));
		host = HostAttemptRecord.parse(JSON.parse(await readFile(join(hostDir, 'host.json'), 'utf8')));
	} catch (error) {
		return `cannot read ${reportPath} or its host record: ${(error as Error).message}`;
	}
	if (host.plan_digest !== report.plan_digest) return `${hostDir}/host.json is for plan ${host.plan_digest}, the report for ${report.plan_digest}`;
	if (JSON.stringify(host.task_ids) !== JSON.stringify(report.task_ids)) return `${hostDir}/host.json and ${reportPath} disagree on the task denominator`;
	const tasks: SideTiming['tasks'] = [];
	const verdicts: HostTaskRecord[] = [];
	for (const [index, id] of report.task_ids.entries()) {
		const dir = join(hostDir, taskDirName(index, id, report.task_ids.length));
		if (!existsSync(join(dir, 'process.json'))) {
			tasks.push({task_id: id, wall_ms: null});
			continue;
		}
		let record: ProcessRecord;
		let verdict: HostTaskRecord;
		try {
			record = ProcessRecord.parse(JSON.parse(await readFile(join(dir, 'process.json'), 'utf8')));
			verdict = HostTaskRecord.parse(JSON.parse(await readFile(join(dir, 'host-task.json'), 'utf8')));
		} catch (error) {
			return `${dir}: unreadable process record: ${(error as Error).message}`;
		}
		// Identity check: this record is the supervisor's launch of the measured binary for this task of this plan.
		if (record.argv[0] !== host.binary.launched || record.argv[1] !== hostWorkerCommand) return `${dir}/process.json is not a launch of ${host.binary.launched}`;
		if (verdict.task_id !== id || verdict.plan_digest !== host.plan_digest || verdict.binary.digest !== host.binary.digest) return `${dir}/host-task.json does not match the attempt's task, plan or binary`;
		if (Math.abs(verdict.wall_ms - record.wall_ms) > 1e-6) return `${dir}: process.json and host-task.json disagree on the wall time`;
		if (verdict.started_ms !== null && verdict.ended_ms !== null && verdict.ended_ms - verdict.started_ms < record.wall_ms - 1) return `${dir}/host-task.json: the launch's span is shorter than its process record's wall time`;
		tasks.push({task_id: id, wall_ms: record.wall_ms});
		verdicts.push(verdict);
	}
	const spanned = verdicts.every(verdict => verdict.started_ms !== null && verdict.ended_ms !== null);
	return {
		report: reportPath,
		host_dir: hostDir,
		binary_digest: host.binary.digest,
		tasks,
		wall_ms: taskSum(tasks),
		attempt_wall_ms: spanned ? attemptWall(verdicts).attempt_wall_ms : null,
		complete: tasks.every(task => task.wall_ms !== null),
	};
}

/** The tasks' wall times added up, or null when one is unknown: a sum with an unknown part is unknown, not short. */
export function taskSum(tasks: SideTiming['tasks']): number | null {
	let total = 0;
	for (const task of tasks) {
		if (task.wall_ms === null) return null;
		total += task.wall_ms;
	}
	return total;
}
