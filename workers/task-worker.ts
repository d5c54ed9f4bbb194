// Only the loop and the loader: every thread imports these, so the engine's index (compiler, scripted server) stays out.
import {loadCandidate} from '../engine/candidate/load-candidate.js';
import {runAgent} from '../engine/loop/run-agent.js';
import {failureOf} from '../engine/engine-error.js';
import type {LoadedPlugin} from '../engine/plugins/loaded-plugin.js';
import type {ProcessGroupMessage, TaskJob, TaskJobResult} from './task-job.js';

/**
 * The piscina worker: runs one task's agent in this thread. It never grades; the supervisor does that.
 * A thread runs one task at a time, so the task marker in this thread's environment belongs to that task alone.
 */
export default async function runTaskJob(job: TaskJob | {warmup: true}): Promise<TaskJobResult | 'warm'> {
	// Warming up only loads this module (and the engine) in the thread, so no task pays for it in its wall time.
	if ('warmup' in job) return 'warm';
	process.env[job.taskMarker] = '1';
	try {
		let plugins: LoadedPlugin[] = [];
		if (job.candidate !== null) {
			try {
				plugins = [await loadCandidate(job.candidate)];
			} catch (error) {
				return {kind: 'init_failed', message: `the candidate did not load: ${(error as Error).message}`};
			}
		}
		let outcome;
		try {
			// A cartridge's tools are bound to this case's workspace; a resource that fails to build is an init failure.
			// Imported on demand: it needs the engine's index, which threads that run no cartridge never load.
			const toolImplementations = job.cartridge === undefined ? undefined
				: await (await import('../cartridges/cartridge-tools.js')).cartridgeToolImplementations(job.cartridge.data, {project_root: job.workspace, case_id: job.cartridge.case_id});
			outcome = await runAgent({
				...(toolImplementations === undefined ? {} : {toolImplementations}),
				// A harness is plain data, so it crosses to this thread intact; absent, the built-in agent runs.
				harness: job.harness,
				task: job.task,
				workspace: job.workspace,
				stateDir: job.stateDir,
				provider: job.provider,
				maxSteps: job.maxSteps,
				timeoutMs: job.timeoutMs,
				// The attempt's limiter: its SharedArrayBuffer arrives shared, so every thread draws from the same one.
				limiter: job.limiter,
				plugins,
				onProcessGroup: (pid: number) => job.port.postMessage({pid} satisfies ProcessGroupMessage),
			});
		} catch (error) {
			// A thrown error loses its class crossing threads: keep the reason the engine classified.
			return {kind: 'error', ...failureOf(error)};
		}
		return {kind: 'outcome', outcome, loaded_plugins: plugins.map(plugin => plugin.id)};
	} finally {
		delete process.env[job.taskMarker];
		job.port.close();
	}
}
