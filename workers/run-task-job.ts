// Only the loop and the loader: every thread imports these, so the engine's index (compiler, scripted server) stays out.
import {threadId} from 'node:worker_threads';
import {loadCandidate} from '../engine/candidate/load-candidate.js';
import {runAgent} from '../engine/loop/run-agent.js';
import {failureOf} from '../engine/engine-error.js';
import {loadOpenAI} from '../engine/provider/openai-client.js';
import type {LoadedPlugin} from '../engine/plugins/loaded-plugin.js';
import type {TaskControlMessage, TaskJob, TaskJobResult, TaskThreadMessage, WarmUpAnswer} from './task-job.js';

/**
 * The piscina worker: runs one task's agent in this thread, beside the thread's other tasks. It never grades; the
 * supervisor does that. Nothing of a task lives in the thread's globals: its marker goes to its own commands, its
 * cancellation arrives on its own port.
 */
export async function runTaskJob(job: TaskJob | {warmup: true}): Promise<TaskJobResult | WarmUpAnswer> {
	// Warming up only loads this module, the engine and its model client in the thread, so no task pays for them in its wall time.
	if ('warmup' in job) return loadOpenAI().then(() => ({warm: threadId}));
	job.port.postMessage({thread: threadId} satisfies TaskThreadMessage);
	const cancellation = cancellationOf(job.port);
	try {
		let plugins: LoadedPlugin[] = [];
		if (job.candidate !== null) {
			const snapshot = job.candidate;
			try {
				plugins = [watched(await flagged(job.inCandidateCode, () => loadCandidate(snapshot)), job.inCandidateCode)];
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
				deadlineMs: job.deadlineMs,
				// The attempt's limiter: its SharedArrayBuffer arrives shared, so every thread draws from the same one.
				limiter: job.limiter,
				plugins,
				signal: cancellation,
				commandEnv: {[job.taskMarker]: '1'},
				onProcessGroup: (pid: number) => job.port.postMessage({pid} satisfies TaskThreadMessage),
			});
		} catch (error) {
			// A thrown error loses its class crossing threads: keep the reason the engine classified.
			return {kind: 'error', ...failureOf(error)};
		}
		return {kind: 'outcome', outcome, loaded_plugins: plugins.map(plugin => plugin.id)};
	} finally {
		job.port.close();
	}
}

/** The task's one cancellation: the supervisor's deadline or an interruption, sent on the task's port. */
function cancellationOf(port: TaskJob['port']): AbortSignal {
	const controller = new AbortController();
	port.on('message', (message: TaskControlMessage) => controller.abort(message.abort));
	return controller.signal;
}

/** A plugin whose every call raises the task's flag while candidate code runs synchronously. */
function watched(plugin: LoadedPlugin, flag: Int32Array): LoadedPlugin {
	return {...plugin, invoke: (capability, input, signal) => flagged(flag, () => plugin.invoke(capability, input, signal))};
}

/** Runs the synchronous part of candidate code with the flag up: if that code never yields, the flag stays up. */
function flagged<T>(flag: Int32Array, call: () => T): T {
	Atomics.store(flag, 0, 1);
	try {
		return call();
	} finally {
		Atomics.store(flag, 0, 0);
	}
}
