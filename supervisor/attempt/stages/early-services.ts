import {startSpawner, type Spawner} from '../../../process/index.js';
import {poolSize} from '../../../workers/pool-size.js';
import {TaskPool} from '../../../workers/task-pool.js';
import {runsAgent} from './attempt-agent.js';
import {openAttemptHost, type AttemptHost} from './attempt-host.js';
import type {AttemptContext} from './attempt-context.js';
import {lanesOf} from './frozen-order.js';
import {settle, type Settled} from './settled.js';

/**
 * What an attempt starts beside admission because nothing admission decides changes it: the host's measure, a local
 * host or agent attempt's spawner, and an in-process attempt's task threads loading the engine (so none waits for
 * admission, nor the first task for them). A refused attempt closes the spawner and the threads unused; no task runs
 * before it is admitted. The provider is not among them: a refused plan never starts its provider
 * (test/supervisor/attempt/run-attempt.test.ts).
 */
export interface EarlyServices {
	host: Promise<Settled<AttemptHost>>;
	/** A local host or agent attempt's spawner; null otherwise. */
	spawner: Promise<Settled<Spawner>> | null;
	/** A local, unsandboxed attempt's warm task threads (its tasks run in the supervisor's process); null otherwise. */
	threads: Promise<Settled<TaskPool>> | null;
}

export function startEarlyServices(attempt: AttemptContext): EarlyServices {
	const {options, plan} = attempt;
	const local = (options.remotePlacement ?? null) === null;
	const launches = (options.candidateHost ?? null) !== null || runsAgent(attempt);
	const spawner = local && launches ? settle(startSpawner()) : null;
	// A sandboxed plan's threads are a sandboxed runner's, started once the sandbox is known.
	const threads = local && !launches && plan.sandbox === undefined ? settle(TaskPool.warm(poolSize(lanesOf(plan), options.threads ?? null))) : null;
	return {host: settle(openAttemptHost(attempt)), spawner, threads};
}

/** Closes what will not be used: the spawner and the threads not kept (the attempt refused, or it threw before its services were up). */
export async function closeEarlyServices(early: EarlyServices, keep: {spawner?: boolean; threads?: boolean} = {}): Promise<void> {
	const [spawner, threads] = await Promise.all([keep.spawner ? null : early.spawner, keep.threads ? null : early.threads]);
	if (spawner != null && 'value' in spawner) await spawner.value.close();
	if (threads != null && 'value' in threads) await threads.value.close();
}
