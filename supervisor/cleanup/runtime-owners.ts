import {holderRuns, readAttemptLock} from '../evidence/attempt-lock.js';
import {readRuntimeRoot} from '../evidence/runtime-root.js';
import {findEvidence} from '../listing/index.js';

/** Runtime folders named by the attempts under `evidence`: whether each one's supervisor still runs. */
export async function runtimeOwners(evidence: string[]): Promise<Map<string, {attempt: string; live: boolean}>> {
	const owners = new Map<string, {attempt: string; live: boolean}>();
	for (const root of new Set(evidence)) {
		for await (const found of findEvidence(root)) {
			if (found.kind !== 'attempt') continue;
			const dir = readRuntimeRoot(found.path)?.dir;
			if (dir == null) continue;
			const lock = readAttemptLock(found.path);
			const live = lock !== null && holderRuns(lock);
			// A copy of the evidence (cp -r) names the same folder: a live holder anywhere wins.
			if (owners.get(dir)?.live !== true) owners.set(dir, {attempt: found.path, live});
		}
	}
	return owners;
}
