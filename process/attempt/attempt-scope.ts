import {setTimeout as sleep} from 'node:timers/promises';
import {cgroupBase} from '../cgroup/cgroup-base.js';
import {enterAttemptCgroup, foreignMembers, killForeign, leaveAttemptCgroup, type AttemptCgroup} from '../cgroup/attempt-cgroup.js';
import {chooseContainment, containmentVariable, type Containment} from '../containment.js';
import {dropMarker, holdMarker} from '../end-now.js';
import {withDescendants} from '../find-members.js';
import {carriesMarker, carriesMarkerLike, readArgv, readStat, readTable, type ProcStat} from '../proc-table.js';
import {treeMarkerPrefix} from '../run-group.js';
import {identityOf, signalIdentity, type ProcessIdentity} from '../process-identity.js';
import {sweepUntilQuiet} from '../stop-tree.js';
import type {LeakAudit, LeakedProcess} from './leak-record.js';

/** Everything an attempt runs, held together so that whatever outlives its task is found, ended and named. */
export interface AttemptScope {
	readonly backend: Containment;
	/** What runs now (the provider, the host session) is the attempt's own: never a leak. Called before the first task. */
	knowServices(): void;
	/** Ends every process of the attempt that is neither the supervisor nor a known service, and says what it ended. */
	audit(): Promise<LeakAudit>;
	/** Ends the scope: the supervisor leaves the attempt cgroup. */
	close(): void;
}

/** One attempt at a time holds the supervisor's cgroup; one started meanwhile in the same process looks by marker. */
let holder: AttemptCgroup | null = null;

/**
 * The attempt's scope: with cgroups the supervisor moves into the leaf of an attempt cgroup; otherwise
 * the attempt's processes are those carrying its marker (`KEY=1`) and the supervisor's own children.
 */
export function openAttemptScope(marker: string, requested?: Containment): AttemptScope {
	const scope = chooseScope(marker, requested);
	// Held until the scope closes, so an exit that cannot wait still finds the attempt's processes by marker.
	holdMarker(marker);
	return {...scope, close: () => {
		dropMarker(marker);
		scope.close();
	}};
}

function chooseScope(marker: string, requested: Containment | undefined): AttemptScope {
	const backend = chooseContainment(requested);
	const base = cgroupBase();
	if (backend !== 'cgroup' || !base.ok || holder !== null) return markerScope(backend === 'cgroup' ? 'proc' : backend, marker);
	try {
		return cgroupScope(enterAttemptCgroup(base));
	} catch (error) {
		// Trees may be created here but the supervisor may not move (a delegation that excludes it): asked for, that is an error.
		if ((requested ?? process.env[containmentVariable]) === 'cgroup') throw error;
		return markerScope('proc', marker);
	}
}

function cgroupScope(attempt: AttemptCgroup): AttemptScope {
	holder = attempt;
	let known = new Map<number, ProcessIdentity>();
	return {
		backend: 'cgroup',
		knowServices() {
			known = identities(foreignMembers(attempt));
		},
		async audit() {
			const leaked = new Map<number, LeakedProcess>();
			const pick = (pids: number[]): number[] => pids.filter(pid => {
				if (isKnown(known, pid)) return false;
				if (!leaked.has(pid)) leaked.set(pid, {...described(pid), found: 'attempt-cgroup', ended: 'cgroup-kill'});
				return true;
			});
			await transitsLeft(foreignMembers(attempt).filter(pid => !isKnown(known, pid)));
			if (pick(foreignMembers(attempt)).length === 0) return {backend: 'cgroup', leaked: [], survivors: []};
			const survivors = await killForeign(attempt, pick);
			return {backend: 'cgroup', leaked: [...leaked.values()], survivors};
		},
		close() {
			leaveAttemptCgroup(attempt);
			holder = null;
		},
	};
}

function markerScope(backend: 'proc' | 'portable', marker: string): AttemptScope {
	let known = new Map<number, ProcessIdentity>();
	// A supervised tree (tool command, grader, host task, service) carries its tree marker and is ended by its own cleanup.
	const members = (table: ProcStat[]): ProcStat[] => withDescendants(table, stat => !isKnown(known, stat.pid, stat.startTime)
		&& !carriesMarkerLike(stat, treeMarkerPrefix) && (stat.ppid === process.pid || carriesMarker(stat, marker)));
	return {
		backend,
		knowServices() {
			// A service's own children count as the service.
			known = identities(withDescendants(readTable(), stat => stat.ppid === process.pid || carriesMarker(stat, marker)).map(stat => stat.pid));
		},
		async audit() {
			const leaked = new Map<number, LeakedProcess>();
			const end = (stat: ProcStat): boolean => {
				// Named before the signal: a killed process's cmdline is empty.
				const seen = {...described(stat.pid), found: foundBy(stat, marker)};
				const ended = signalIdentity(identityOf(stat), 'SIGKILL');
				if (!leaked.has(stat.pid)) leaked.set(stat.pid, {...seen, ended: ended ? 'sigkill' : 'gone'});
				return ended;
			};
			const quiet = await sweepUntilQuiet(members, end, () => undefined);
			return {backend, leaked: [...leaked.values()], survivors: quiet ? [] : members(readTable()).map(stat => stat.pid)};
		},
		close() {
			// Nothing held: the marker leaves with the attempt.
		},
	};
}

/** A supervised tree's shim is born in the leaf and moves itself out within milliseconds: give one in transit that time. */
async function transitsLeft(pids: number[]): Promise<void> {
	const inTransit = (pid: number): boolean => {
		const stat = readStat(pid);
		return stat !== null && carriesMarkerLike(stat, treeMarkerPrefix);
	};
	if (pids.some(inTransit)) await sleep(transitMs);
}

const transitMs = 100;

function foundBy(stat: ProcStat, marker: string): LeakedProcess['found'] {
	return stat.ppid === process.pid && !carriesMarker(stat, marker) ? 'supervisor-child' : 'attempt-marker';
}

function described(pid: number): Pick<LeakedProcess, 'pid' | 'argv' | 'comm'> {
	return {pid, argv: readArgv(pid), comm: readStat(pid)?.comm ?? null};
}

function identities(pids: number[]): Map<number, ProcessIdentity> {
	const found = new Map<number, ProcessIdentity>();
	for (const pid of pids) {
		const stat = readStat(pid);
		if (stat !== null) found.set(pid, identityOf(stat));
	}
	return found;
}

function isKnown(known: Map<number, ProcessIdentity>, pid: number, startTime = readStat(pid)?.startTime): boolean {
	return startTime !== undefined && known.get(pid)?.startTime === startTime;
}
