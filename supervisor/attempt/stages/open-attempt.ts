import {randomUUID} from 'node:crypto';
import {join, resolve} from 'node:path';
import {pino, type Logger} from 'pino';
import {writeBytes} from '../../../files/write-json.js';
import {openAttemptScope, publishCpuLimit, publishMemoryLimit, publishSandbox, type AttemptScope} from '../../../process/index.js';
import {killMarked} from '../../../process/kill-marked.js';
import {releaseAttemptLock, writeAttemptLock} from '../../evidence/attempt-lock.js';
import {openEvidenceDir} from '../../evidence/evidence-dir.js';
import {checkRuntimeRootVariable, chooseRuntimeRoot, exportLeftRuntime, recordRuntimeRoot, type RuntimeRootRecord} from '../../evidence/runtime-root.js';
import type {Plan} from '../../plan/plan-schema.js';
import {harborCpuLimit} from '../../plan/plan-harbor.js';
import {taskLimitsOf} from '../../plan/task-limits.js';
import type {AttemptContext} from './attempt-context.js';
import {checkOptions, sideOf, type AttemptOptions} from './attempt-options.js';
import {publishAttemptSandbox} from './attempt-sandbox.js';
import {openAttemptTraces, type AttemptTraces, type TracedAttempt} from '../export/attempt-traces.js';
import {Ledger} from '../task-core/ledger.js';
import {createAttemptKey} from '../../evidence/seal/index.js';
import {readPlanFile} from './read-plan.js';


/** Reads the plan, creates the new evidence directory with the plan's exact bytes, and marks the attempt's processes. */
export async function openAttempt(options: AttemptOptions): Promise<AttemptContext> {
	checkOptions(options);
	const {bytes, plan} = await readPlanFile(options.planPath);
	const attemptId = randomUUID();
	// First: an unusable key store is bad input before any evidence or runtime folder exists.
	const sealKey = createAttemptKey(attemptId);
	const markerKey = `HLAB_ATTEMPT_${attemptId.replaceAll('-', '')}`;
	// A tmpfs too small for one workspace is passed over for the next root.
	const {dir, runtime} = await startEvidence(options.artifacts, bytes, {attemptId, marker: `${markerKey}=1`}, taskLimitsOf(plan).workspaceBytes);
	const startedAt = new Date();
	const t0 = performance.now();
	// Every thread and process started from here inherits the marker, so a later recovery can find survivors.
	process.env[markerKey] = '1';
	const scope = openAttemptScope(`${markerKey}=1`);
	publishAttemptSandbox({plan, dir, runtime, options});
	// Published before any worker thread exists, as the sandbox is: the threads' tool commands run under it.
	publishMemoryLimit(taskLimitsOf(plan).memoryBytes);
	publishCpuLimit(harborCpuLimit(plan.harbor));
	const log = pino({base: {attempt_id: attemptId}}, pino.destination({dest: join(dir, 'log.jsonl'), sync: true}));
	const side = sideOf(options);
	log.info({plan: resolve(options.planPath), side, plan_digest: plan.plan_digest, runtime}, 'attempt started');
	return {
		options, plan, dir, attemptId, markerKey, scope, side, log, startedAt, t0, runtime,
		signal: options.signal ?? new AbortController().signal,
		ledger: new Ledger(join(dir, 'ledger.jsonl'), attemptId, sealKey.key),
		keyPath: sealKey.path,
		traces: await openTraces(options, {attempt_id: attemptId, plan_digest: plan.plan_digest, side}, log),
	};
}

/** The attempt's trace export, when asked for; a collector's failure is one line on stderr and one in the log. */
async function openTraces(options: AttemptOptions, attempt: TracedAttempt, log: Logger): Promise<AttemptTraces | null> {
	if (!options.traces) return null;
	return openAttemptTraces(options.traces, attempt, line => {
		log.warn({endpoint: options.traces?.endpoint}, line);
		process.stderr.write(`hlab: warning: ${line}\n`);
	});
}

/**
 * The new evidence directory, in place only with its lock and the plan's exact bytes (so from its first instant a
 * recovery knows it is an attempt and whether its supervisor runs), then where the runtime state will live: each
 * runtime folder is named in the directory before it is made, so a crash at any instant leaves none that nobody names.
 */
async function startEvidence(artifacts: string, planBytes: Buffer, attempt: {attemptId: string; marker: string}, minFreeBytes: number): Promise<{dir: string; runtime: RuntimeRootRecord}> {
	checkRuntimeRootVariable();
	const {dir} = await openEvidenceDir(artifacts, async staging => {
		writeAttemptLock(staging, attempt);
		// Admission and recovery trust this copy: never overwritten, on disk before anything runs.
		await writeBytes(join(staging, 'plan.json'), planBytes, {exclusive: true, durable: true});
	});
	try {
		const runtime = chooseRuntimeRoot(attempt.attemptId, process.env, '/dev/shm', minFreeBytes, planned => recordRuntimeRoot(dir, planned));
		recordRuntimeRoot(dir, runtime);
		return {dir, runtime};
	} catch (error) {
		// Nothing of the attempt runs yet: a recovery may take the directory even while this process lives on.
		releaseAttemptLock(dir);
		throw error;
	}
}

/**
 * Whatever way the attempt ended: ends every process that still carries its marker, moves any task state left on the
 * runtime root into the evidence directory and removes the root, then unmarks the supervisor.
 */
export async function closeAttempt(attempt: AttemptContext): Promise<void> {
	try {
		// First: the last traces leave while the rest closes, within the export's own timeout.
		await attempt.traces?.close();
		const survivors = await killMarked(`${attempt.markerKey}=1`);
		if (survivors.length > 0) attempt.log.warn({pids: survivors}, 'processes of the attempt outlived its report and were killed');
		const left = await exportLeftRuntime(attempt.dir);
		if (left.moved.length > 0 || left.problems.length > 0) attempt.log.warn(left, 'runtime state left on the runtime root');
	} finally {
		attempt.scope.close();
		publishSandbox(null);
		publishMemoryLimit(null);
		publishCpuLimit(null);
		delete process.env[attempt.markerKey];
	}
	// Last: with its processes ended and its state moved, a recovery may take the directory (this process may live on).
	releaseAttemptLock(attempt.dir);
	attempt.log.flush();
}
