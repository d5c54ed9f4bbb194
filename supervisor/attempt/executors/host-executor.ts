import {existsSync} from 'node:fs';
import {join} from 'node:path';
import type {Sandbox, Spawner} from '../../../process/index.js';
import {runHostTask, writeMeteringRecord, type HostSession} from '../../host/index.js';
import type {Settled} from '../stages/settled.js';
import {attemptSpawner} from './attempt-spawner.js';
import {agentInput, outcomeUnfinished, type TaskExecutor} from '../task-core/task-execution.js';

/**
 * Each task as `EXE host-worker` in its own process group (runHostTask): the wall time is the supervisor's
 * process record, process.json is kept in the task's evidence, and the worker's outcome is only a claim the
 * runner's grader checks against the workspace. Its usage is what the task's metering proxy counted.
 */
export function hostExecutor(session: HostSession, sandbox?: (writable: string[]) => Sandbox, starting: Promise<Settled<Spawner>> | null = null): TaskExecutor {
	let spawner: Spawner | null = null;
	return {
		timing: 'supervised-host',
		threads: null,
		async start() {
			// One process per task, forked by the attempt's spawner: the supervisor never copies its own page tables for one.
			spawner = await attemptSpawner(starting);
		},
		async execute(job) {
			const run = await runHostTask(session, {
				index: job.index,
				...agentInput(job),
				signal: job.signal,
				memoryLimitBytes: job.memoryLimitBytes,
				processJsonIn: job.paths.dir,
				sandbox: sandbox?.([job.paths.workspace, job.paths.state]),
				...(spawner === null ? {} : {launch: spawner.run}),
			});
			const evidence: Record<string, string> = existsSync(join(job.paths.dir, 'process.json')) ? {process: `${job.paths.relDir}/process.json`} : {};
			Object.assign(evidence, await writeMeteringRecord(job.paths, {usage: run.metered, requests: run.requests, refusals: run.refusals}));
			// The usage is the supervisor's metering at the provider boundary; the worker's own figure stays a claim.
			const outcome = run.outcome === null ? null : {...run.outcome, usage: run.metered};
			const unfinished = run.failure ?? (outcome === null
				? {reason: 'host' as const, message: 'the host worker gave no outcome the supervisor accepted'}
				: outcomeUnfinished(outcome));
			return {wall_ms: run.record.wall_ms, outcome, unfinished, evidence, usageClaim: run.claimed};
		},
		async close() {
			// Every launch already ended its own process group; the spawner is the last of the executor's processes.
			await spawner?.close();
		},
	};
}
