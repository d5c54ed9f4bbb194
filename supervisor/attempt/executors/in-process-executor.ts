import type {CandidateSnapshot} from '../../../engine/candidate/snapshot.js';
import type {ProviderLimiterShare} from '../../../engine/provider/provider-limiter.js';
import type {Harness} from '../../../harness/index.js';
import {poolSize} from '../../../workers/pool-size.js';
import {TaskPool, type PoolEnding} from '../../../workers/task-pool.js';
import type {Settled} from '../stages/settled.js';
import {agentInput, outcomeUnfinished, type Execution, type TaskExecutor} from '../task-core/task-execution.js';

/**
 * The piscina pool: a few worker threads (one per core unless `threads` says otherwise) share the lanes, the engine
 * (and candidate) loaded once per thread in the supervisor's process. Every task draws from the attempt's one
 * provider limiter, when the plan froze limits, and runs the attempt's Harness when it has one.
 */
export function inProcessExecutor(candidate: CandidateSnapshot | null, {threads = null, limiter = null, harness = null, starting = null}: {threads?: number | null; limiter?: ProviderLimiterShare | null; harness?: Harness | null; starting?: Promise<Settled<TaskPool>> | null} = {}): TaskExecutor {
	let pool: TaskPool | null = null;
	return {
		timing: 'in-process',
		get threads() {
			return pool?.size.threads ?? null;
		},
		async start(lanes) {
			// The threads warmed beside admission (stages/early-services.ts), sized from the same lanes, else new ones.
			const started = starting === null ? null : await starting;
			if (started !== null && 'error' in started) throw started.error;
			pool = started?.value ?? await TaskPool.warm(poolSize(lanes, threads));
		},
		async execute(job) {
			if (pool === null) throw new Error('the task pool was not started');
			const run = await pool.run({
				...agentInput(job),
				candidate,
				...(limiter === null ? {} : {limiter}),
				// A cartridge case brings its own Harness and tools; otherwise the attempt's Harness, when it has one.
				...(job.agent !== undefined ? {harness: job.agent.harness, cartridge: job.agent.cartridge} : harness === null ? {} : {harness}),
			}, {signal: job.signal});
			return {...poolExecution(run), wall_ms: run.wall_ms, evidence: {}};
		},
		async close() {
			await pool?.close();
		},
	};
}

/** The task core's view of how the pool ended a task, wherever the pool runs. */
export function poolExecution(run: PoolEnding): Pick<Execution, 'outcome' | 'unfinished' | 'loadedPlugins'> {
	switch (run.kind) {
		case 'deadline': return {outcome: null, unfinished: {reason: 'timeout', message: run.message}};
		case 'aborted': return {outcome: null, unfinished: {reason: 'aborted', message: run.message}};
		case 'crash': return {outcome: null, unfinished: {reason: 'crash', message: run.message}};
		default: break;
	}
	const result = run.result;
	if (result.kind === 'init_failed') return {outcome: null, unfinished: {reason: 'init', message: result.message}};
	if (result.kind === 'error') return {outcome: null, unfinished: {reason: result.reason, message: result.message}};
	return {outcome: result.outcome, unfinished: outcomeUnfinished(result.outcome), loadedPlugins: result.loaded_plugins};
}

