import {readFile} from 'node:fs/promises';
import {writeJson} from '../../files/write-json.js';
import {join} from 'node:path';
import {buildDigest} from '../evidence/build-metadata.js';
import {digestFile} from '../../files/digest.js';
import {identifyHost, type HostIdentity} from './host-identity.js';
import {HostAttemptRecord, hostAttemptSchema, HostTaskRecord} from './host-records.js';
import {attemptWall, hostDirOf} from './host-dir.js';
import {createNewDir, taskDirName} from '../evidence/evidence-dir.js';

/** One host-candidate attempt as the supervisor sees it: the measured executable and its record folder. */
export interface HostSession {
	/** `<artifacts>.host`, beside the evidence directory. */
	dir: string;
	identity: HostIdentity;
	planDigest: string;
	taskIds: string[];
	/** performance.now() when the session opened: every launch's span is measured from it on the monotonic clock. */
	clockOrigin: number;
}

export class HostSessionError extends Error {
	constructor(readonly reason: 'host_dir_exists' | 'host_unreadable', message: string) {
		super(message);
	}
}

/**
 * Measures the host executable and the running supervisor and writes `<artifacts>.host/host.json` before any
 * task starts. A build whose files differ from its build.json is still recorded: `identity.problems` says
 * why the caller must refuse it (the runner fails the whole denominator with reason `admission`).
 */
export async function openHostSession(options: {artifacts: string; exe: string; planDigest: string; taskIds: string[]}): Promise<HostSession> {
	const dir = hostDirOf(options.artifacts);
	if (!await createNewDir(dir)) throw new HostSessionError('host_dir_exists', `${dir} already exists; each host attempt needs a new one`);
	let identity: HostIdentity;
	try {
		identity = await identifyHost(options.exe);
	} catch (error) {
		throw new HostSessionError('host_unreadable', `cannot measure the host executable ${options.exe}: ${(error as Error).message}`);
	}
	const [nodeDigest, supervisorBuild] = await Promise.all([digestFile(process.execPath), buildDigest()]);
	const record: HostAttemptRecord = {
		schema: hostAttemptSchema,
		plan_digest: options.planDigest,
		task_ids: options.taskIds,
		binary: identity,
		supervisor: {pid: process.pid, node_path: process.execPath, node_digest: nodeDigest, build_digest: supervisorBuild.digest},
		started_at: new Date().toISOString(),
		closed: null,
	};
	await writeJson(join(dir, 'host.json'), HostAttemptRecord.parse(record), {durable: true});
	return {dir, identity, planDigest: options.planDigest, taskIds: options.taskIds, clockOrigin: performance.now()};
}

/**
 * Measures the executable (every file of a build, see measureAgain) and the supervisor again and records whether either changed during the attempt,
 * and which tasks of the denominator the worker answered for (an unanswered task is a failed task).
 */
export async function closeHostSession(session: HostSession): Promise<HostAttemptRecord> {
	const path = join(session.dir, 'host.json');
	const record = HostAttemptRecord.parse(JSON.parse(await readFile(path, 'utf8')));
	const [again, supervisorNow] = await Promise.all([measureAgain(session), buildDigest().then(build => build.digest)]);
	const answered: string[] = [];
	const unanswered: string[] = [];
	const launched: HostTaskRecord[] = [];
	const tasks = await readTaskRecords(session);
	for (const [index, id] of session.taskIds.entries()) {
		const task = tasks[index]!;
		(task?.answered ? answered : unanswered).push(id);
		if (task !== null) launched.push(task);
	}
	const wall = attemptWall(launched);
	const closed: HostAttemptRecord = {
		...record,
		closed: {
			ended_at: new Date().toISOString(),
			binary_digest: again?.digest ?? 'missing',
			binary_unchanged: again?.digest === session.identity.digest,
			supervisor_build_digest: supervisorNow,
			supervisor_unchanged: supervisorNow === record.supervisor.build_digest,
			answered,
			unanswered,
			attempt_wall_ms: wall.attempt_wall_ms,
			task_sum_ms: wall.task_sum_ms,
		},
	};
	await writeJson(path, HostAttemptRecord.parse(closed), {durable: true});
	return closed;
}

/**
 * The host as it is at the close, every file of a build again (a host can rewrite any of them, not only its launcher).
 * Through the digest cache an unchanged file is one stat, its bytes are not read again; a changed one is hashed.
 */
async function measureAgain(session: HostSession): Promise<HostIdentity | null> {
	return identifyHost(session.identity.launched).catch(() => null);
}

/** The whole-attempt wall time and per-task sum from the task records in `<artifacts>.host/`, closed or not (a recovered attempt). */
export async function readHostWall(artifacts: string, taskIds: string[]): Promise<{attempt_wall_ms: number | null; task_sum_ms: number | null}> {
	const session = {dir: hostDirOf(artifacts), taskIds};
	const launched = (await readTaskRecords(session)).filter(task => task !== null);
	return attemptWall(launched);
}

/** The host record folder of one task, mirroring the evidence directory's `tasks/NNN-id`. */
export function hostTaskDir(session: {dir: string; taskIds: string[]}, index: number, taskId: string): string {
	return join(session.dir, taskDirName(index, taskId, session.taskIds.length));
}

/** Every task's record in frozen order (null where none was written), read a batch at a time rather than one after another. */
async function readTaskRecords(session: Pick<HostSession, 'dir' | 'taskIds'>): Promise<Array<HostTaskRecord | null>> {
	const records: Array<HostTaskRecord | null> = [];
	for (let start = 0; start < session.taskIds.length; start += readBatch) {
		const batch = session.taskIds.slice(start, start + readBatch);
		records.push(...await Promise.all(batch.map((id, offset) => readTaskRecord(session, start + offset, id))));
	}
	return records;
}

/** Enough reads at once to keep the thread pool busy, few enough that 10,000 tasks never hold 10,000 open files. */
const readBatch = 64;

async function readTaskRecord(session: Pick<HostSession, 'dir' | 'taskIds'>, index: number, id: string): Promise<HostTaskRecord | null> {
	try {
		return HostTaskRecord.parse(JSON.parse(await readFile(join(hostTaskDir(session, index, id), 'host-task.json'), 'utf8')));
	} catch {
		return null;
	}
}
