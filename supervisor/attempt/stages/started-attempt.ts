import type {LeakedProcess} from '../../../process/index.js';
import type {AttemptLeaks, TaskResult} from '../report/report-schema.js';
import {admitAttempt, type Admission} from './admit-attempt.js';
import type {AttemptContext} from './attempt-context.js';
import {closeAttemptHost} from './attempt-host.js';
import type {AttemptOptions} from './attempt-options.js';
import {auditAttempt, withNodeAudits} from './audit-leaks.js';
import {checkCandidateFile} from './load-candidate.js';
import {closeAttempt, openAttempt} from './open-attempt.js';
import {measureMachine, type Machine} from './measure-machine.js';
import {measureSupervisor, recordAttempt} from './record-attempt.js';
import {startServices, type Services} from './start-services.js';
import {closeEarlyServices, startEarlyServices} from './early-services.js';

/** An attempt opened, admitted and with its services started: what every way of running an attempt's tasks begins with. */
export interface StartedAttempt {
	attempt: AttemptContext;
	admission: Admission;
	services: Services;
	/** The supervisor's own code, hashed while the services start, for the attempt record. */
	measuring: ReturnType<typeof measureSupervisor>;
	/** The machine and its programs' versions, measured from the attempt's opening on. */
	machine: Promise<Machine>;
}

/** Opens, admits and starts the attempt, runs `body`, then closes in reverse order: services, then the attempt itself. */
export async function withStartedAttempt<T>(options: AttemptOptions, body: (started: StartedAttempt) => Promise<T>): Promise<T> {
	await checkCandidateFile(options);
	const attempt = await openAttempt(options);
	// Its programs' `--version` are process starts: run beside admission, not between the warm threads and the first task.
	const machine = measureMachine(attempt.dir);
	machine.catch(() => undefined);
	try {
		// The host's measure, its spawner and the task threads need nothing admission decides: they start beside it (the provider waits for it).
		const early = startEarlyServices(attempt);
		const admission = await admitAttempt(attempt).catch(async (error: unknown) => {
			await closeEarlyServices(early);
			throw error;
		});
		const measuring = measureSupervisor(admission.result.packages);
		const services = await startServices(attempt, admission, early);
		try {
			return await body({attempt, admission, services, measuring, machine});
		} finally {
			await services.close();
		}
	} finally {
		// Those programs are the supervisor's children: none outlives the attempt, however it ended.
		await machine.catch(() => undefined);
		await closeAttempt(attempt);
	}
}

/** Writes attempt.json; what runs from now on (beyond the provider, the host session, the threads) is a task's. */
export async function recordStarted({attempt, services, measuring, machine}: StartedAttempt): Promise<void> {
	await recordAttempt(attempt, services, measuring, machine);
	attempt.scope.knowServices();
}

/**
 * After the last task: the host re-measured, then the final leak audit (a queued attempt's withdrawn first, so that its
 * nodes' own final audits join it); every problem of any is the attempt's.
 */
export async function closeTasks({attempt, services}: StartedAttempt, run: {results: TaskResult[]; unattributed: LeakedProcess[]}): Promise<{problems: string[]; leaks: AttemptLeaks}> {
	const nodes = services.placement.kind === 'queue' ? await services.placement.remote.withdraw() : null;
	const hostProblems = await closeAttemptHost(services.host, attempt);
	const local = await auditAttempt(attempt, run);
	const final = nodes === null ? local : withNodeAudits(local, nodes);
	return {problems: [...hostProblems, ...final.problems], leaks: final.leaks};
}
