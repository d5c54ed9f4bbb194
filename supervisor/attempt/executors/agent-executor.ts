import type {Sandbox, Spawner} from '../../../process/index.js';
import {runAgentTask, type AdmittedAgent} from '../../agent/index.js';
import type {Settled} from '../stages/settled.js';
import type {TaskExecutor} from '../task-core/task-execution.js';
import {attemptSpawner} from './attempt-spawner.js';

/**
 * Each task as a third-party agent CLI through its adapter (runAgentTask): a supervised process tree behind the
 * task's own metering proxy. The wall time is the supervisor's process record; the usage is the metering, the
 * agent's own figure a claim; the grader checks the workspace (and the collected answer), never the agent's word.
 */
export function agentExecutor(agent: AdmittedAgent, options: {graceMs?: number; sandbox?: ((writable: string[]) => Sandbox) | undefined; starting?: Promise<Settled<Spawner>> | null} = {}): TaskExecutor {
	const clockOrigin = performance.now();
	let spawner: Spawner | null = null;
	return {
		timing: 'supervised-host',
		threads: null,
		async start() {
			// One process tree per task, forked by the attempt's spawner: the supervisor never copies its own page tables for one.
			spawner = await attemptSpawner(options.starting ?? null);
		},
		async execute(job) {
			const run = await runAgentTask({
				agent, index: job.index, task: job.task, workspace: job.paths.workspace, runtime: job.paths.runtime,
				evidence: {dir: job.paths.dir, relDir: job.paths.relDir}, provider: job.provider, maxSteps: job.maxSteps, deadlineMs: job.deadlineMs,
				signal: job.signal, memoryLimitBytes: job.memoryLimitBytes, clockOrigin, ...(options.graceMs === undefined ? {} : {graceMs: options.graceMs}), ...(spawner === null ? {} : {launch: spawner.run}), ...(options.sandbox === undefined ? {} : {sandbox: options.sandbox}),
			});
			// An agent that never started has no process record: its wall time is unknown, not 0.
			return {wall_ms: run.record?.wall_ms ?? null, outcome: run.outcome, unfinished: run.failure, evidence: run.evidence, usageClaim: run.usageClaim};
		},
		async close() {
			// Every launch already ended its own process tree; the spawner is the last of the executor's processes.
			await spawner?.close();
		},
	};
}
