import {readdirSync} from 'node:fs';
import path from 'node:path';
import {cgroupBase} from './cgroup/cgroup-base.js';
import {killForeignNow} from './cgroup/attempt-cgroup.js';
import {killCgroup} from './cgroup/tree-cgroup.js';
import {withDescendants} from './find-members.js';
import {carriesMarker, readTable} from './proc-table.js';
import {identityOf, signalIdentity} from './process-identity.js';

/** Markers of the attempts open in this process: what `endEverythingNow` looks for in /proc. */
const openMarkers = new Set<string>();

/** An attempt's marker, held from its scope's opening to its closing. */
export function holdMarker(marker: string): void {
	openMarkers.add(marker);
}

export function dropMarker(marker: string): void {
	openMarkers.delete(marker);
}

const sweepRounds = 20;
const pauseMs = 10;

/**
 * SIGKILLs everything this supervisor started, synchronously, for the last moment before an exit that cannot wait
 * (a third interrupt): every tree cgroup at once (`cgroup.kill`, from whichever thread made it), the foreign members
 * of every attempt cgroup, then every descendant of the supervisor and every process carrying an open attempt's
 * marker until two looks in a row find none. Returns how many processes the /proc sweep signalled.
 */
export function endEverythingNow(): number {
	killCgroupsNow();
	let signalled = 0;
	const markers = [...openMarkers];
	const members = (): ReturnType<typeof readTable> => withDescendants(readTable(), stat => stat.ppid === process.pid || markers.some(marker => carriesMarker(stat, marker)));
	for (let round = 0, empty = 0; round < sweepRounds && empty < 2; round += 1) {
		const found = members();
		empty = found.length === 0 ? empty + 1 : 0;
		for (const stat of found) if (signalIdentity(identityOf(stat), 'SIGKILL')) signalled += 1;
		// A parent forking while it is killed leaves a child for the next look.
		pauseSync(pauseMs);
	}
	return signalled;
}

/** Every cgroup under this supervisor's base: trees killed whole, attempt cgroups emptied of all but the supervisor. */
function killCgroupsNow(): void {
	const base = cgroupBase();
	if (!base.ok) return;
	for (const name of entries(base.dir)) {
		const dir = path.join(base.dir, name);
		try {
			if (name.startsWith('attempt-')) killForeignNow(dir);
			else killCgroup({dir});
		} catch {
			// Removed meanwhile: nothing left to end there.
		}
	}
}

function entries(dir: string): string[] {
	try {
		return readdirSync(dir, {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => entry.name);
	} catch {
		return [];
	}
}

/** A blocking pause: the exit path has no event loop left to wait on. */
function pauseSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
