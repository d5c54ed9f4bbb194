import {startSpawner, type Spawner} from '../../../process/index.js';
import type {Settled} from '../stages/settled.js';

/**
 * The spawner an executor launches its tasks through: the one started beside admission (stages/early-services.ts) when
 * the attempt could, else a new one; a spawner that failed to start fails the executor's start.
 */
export async function attemptSpawner(starting: Promise<Settled<Spawner>> | null): Promise<Spawner> {
	const started = starting === null ? null : await starting;
	if (started !== null && 'error' in started) throw started.error;
	return started?.value ?? startSpawner();
}
