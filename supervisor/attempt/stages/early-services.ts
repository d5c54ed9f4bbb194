import {startSpawner, type Spawner} from '../../../process/index.js';
import {runsAgent} from './attempt-agent.js';
import {openAttemptHost, type AttemptHost} from './attempt-host.js';
import type {AttemptContext} from './attempt-context.js';
import {settle, type Settled} from './settled.js';

/**
 * What an attempt starts beside admission because nothing admission decides changes it: the host's measure and a local
 * host or agent attempt's spawner (so neither waits for admission, nor the first task for them). A refused attempt closes the
 * spawner unused. The provider is not among them: a refused plan never starts its provider (test/supervisor/attempt/run-attempt.test.ts).
 */
export interface EarlyServices {
	host: Promise<Settled<AttemptHost>>;
	/** A local host or agent attempt's spawner; null otherwise. */
	spawner: Promise<Settled<Spawner>> | null;
}

export function startEarlyServices(attempt: AttemptContext): EarlyServices {
	const {options} = attempt;
	const local = (options.remotePlacement ?? null) === null;
	const launches = (options.candidateHost ?? null) !== null || runsAgent(attempt);
	const spawner = local && launches ? settle(startSpawner()) : null;
	return {host: settle(openAttemptHost(attempt)), spawner};
}

/** Closes the spawner when it will not be used (the attempt refused, or it threw before its services were up). */
export async function closeEarlyServices(early: EarlyServices): Promise<void> {
	const spawner = await early.spawner;
	if (spawner !== null && 'value' in spawner) await spawner.value.close();
}
