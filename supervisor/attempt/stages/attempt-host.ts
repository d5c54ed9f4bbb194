import {resolve} from 'node:path';
import {closeHostSession, HostSessionError, openHostSession, type HostAttemptRecord, type HostSession} from '../../host/index.js';
import type {TaskFailure} from '../task-core/failed-result.js';
import type {AttemptContext} from './attempt-context.js';
import type {Report} from '../report/report-schema.js';

export interface AttemptHost {
	session: HostSession | null;
	/** A host that cannot be measured, or does not match its build record, refuses the attempt. */
	failure: TaskFailure | null;
}

/** Measures the `--candidate-host` executable and opens its record folder; none for an in-process attempt. */
export async function openAttemptHost(attempt: AttemptContext): Promise<AttemptHost> {
	const exe = attempt.options.candidateHost ?? null;
	if (exe === null) return {session: null, failure: null};
	const {plan} = attempt;
	let session: HostSession;
	try {
		session = await openHostSession({artifacts: attempt.dir, exe: resolve(attempt.options.cwd ?? process.cwd(), exe), planDigest: plan.plan_digest, taskIds: plan.task_ids});
	} catch (error) {
		if (!(error instanceof HostSessionError && error.reason === 'host_unreadable')) throw error;
		attempt.log.info({host: error.message}, 'host measured');
		return {session: null, failure: {reason: 'admission', message: error.message}};
	}
	attempt.log.info({host: session.identity}, 'host measured');
	return {session, failure: mismatch(session)};
}

function mismatch(session: HostSession): TaskFailure | null {
	const {launched, problems} = session.identity;
	if (problems.length === 0) return null;
	return {reason: 'admission', message: `the host executable ${launched} does not match its build record: ${problems.join('; ')}`};
}

export function hostRef(session: HostSession | null): Report['host'] {
	if (session === null) return null;
	const {launched, path, kind, digest} = session.identity;
	return {launched, path, kind, digest};
}

/** Re-measures the host and the supervisor after the last task; a change during the attempt fails it. */
export async function closeAttemptHost(session: HostSession | null, attempt: AttemptContext): Promise<string[]> {
	if (session === null) return [];
	let closed: NonNullable<HostAttemptRecord['closed']>;
	try {
		closed = (await closeHostSession(session)).closed!;
	} catch (error) {
		return [`the host session could not be closed, so the binary was not re-measured: ${(error as Error).message}`];
	}
	attempt.log.info({closed}, 'host session closed');
	const problems: string[] = [];
	if (!closed.binary_unchanged) problems.push(`the host executable ${session.identity.launched} changed during the attempt (${session.identity.digest} at the start, ${closed.binary_digest} at the end)`);
	if (!closed.supervisor_unchanged) problems.push(`the supervisor's own build changed during the attempt (now ${closed.supervisor_build_digest})`);
	return problems;
}
