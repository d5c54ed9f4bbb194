import treeKill from 'tree-kill';
import {cgroupBase} from './cgroup/cgroup-base.js';
import {stopCgroupTree} from './cgroup/stop-cgroup-tree.js';
import {cpuMaxValue} from './cpu-limit.js';
import {createTreeCgroup, enterStep, limitCgroupCpu, limitCgroupMemory, oomKills, readResources, removeTreeCgroup, waitPopulated} from './cgroup/tree-cgroup.js';
import type {Containment} from './containment.js';
import {procTracker, psTracker, type DescendantTracker} from './descendant-tracker.js';
import type {ProcStat} from './proc-table.js';
import {identityOf, isStillRunning, type ProcessIdentity} from './process-identity.js';
import type {TreeResources} from './process-record.js';
import {shimArgv, type ShimStep} from './start-shim.js';
import {stopTree, type StopResult} from './stop-tree.js';

/** What a backend does for one tree: how it is started, ended and measured. */
export interface TreeContainer {
	containment: Containment;
	/** The argv to spawn for the command, behind a shim that takes the backend's steps and then `steps` where there are any. */
	wrap(argv: string[], steps: ShimStep[]): string[];
	/** The leader runs: start watching it. `exited` settles when the leader has exited. */
	started(leader: ProcessIdentity, exited: Promise<unknown>): void;
	/** Ends every member; `leaderEnded` is false when the deadline, a limit or an abort ends a running tree. */
	stop(options: {graceMs: number; sweep?: boolean; leaderEnded: boolean}): Promise<StopResult>;
	resources(): TreeResources;
	/** Bounds the whole tree's memory where the backend can (a cgroup with the memory controller); false: it cannot. */
	limitMemory(bytes: number): boolean;
	/** Bounds the whole tree's CPU where the backend can (a cgroup with the cpu controller); false: it cannot. */
	limitCpu(cpus: number): boolean;
	/** Processes of the tree the OOM killer ended; null where the backend cannot tell. */
	oomKills(): number | null;
	/** Drops what the backend holds for the tree (its cgroup, its watch). */
	release(): void;
}

const unmeasured: TreeResources = {cpu_user_ms: null, cpu_system_ms: null, peak_memory_bytes: null, peak_processes: null};

export function openContainer(containment: Containment, marker: string, track: boolean): TreeContainer {
	if (containment === 'cgroup') return cgroupContainer();
	return sweepContainer(containment, marker, track);
}

function cgroupContainer(): TreeContainer {
	const base = cgroupBase();
	if (!base.ok) throw new Error(`cgroup containment is unavailable: ${base.reason}`);
	const tree = createTreeCgroup(base.dir);
	let leader: ProcessIdentity | null = null;
	let exited: Promise<unknown> = Promise.resolve();
	return {
		containment: 'cgroup',
		wrap: (argv, steps) => shimArgv([enterStep(tree), ...steps], argv),
		started(identity, leaderExited) {
			leader = identity;
			exited = leaderExited;
		},
		stop: ({graceMs, sweep}) => stopCgroupTree(tree, {
			pgid: leader?.pid ?? -1,
			graceMs,
			sweep,
			// Until the shim has written itself in, an empty cgroup proves nothing.
			entered: Promise.race([exited, waitPopulated(tree, true, 2000, exited)]),
		}),
		resources: () => readResources(tree),
		limitMemory: bytes => limitCgroupMemory(tree, bytes),
		limitCpu: cpus => limitCgroupCpu(tree, cpuMaxValue(cpus)),
		oomKills: () => oomKills(tree),
		release: () => void removeTreeCgroup(tree),
	};
}

/** The /proc sweep, or its portable variant: ancestry from `ps` (pidtree) and escaped members ended with tree-kill. */
function sweepContainer(containment: 'proc' | 'portable', marker: string, track: boolean): TreeContainer {
	const tracker: DescendantTracker = containment === 'proc' ? procTracker : psTracker;
	let leader: ProcessIdentity | null = null;
	let descendants = new Map<number, ProcessIdentity>();
	return {
		containment,
		wrap: (argv, steps) => shimArgv(steps, argv),
		started(identity) {
			leader = identity;
			descendants = track ? tracker.watch(identity) : new Map([[identity.pid, identity]]);
		},
		stop({graceMs, sweep, leaderEnded}) {
			// While the tree still runs, one last snapshot catches descendants born since the previous poll.
			const snapshot = leaderEnded || !track ? undefined : tracker.refresh();
			return stopTree({pgid: leader!.pid, startTime: leader!.startTime, marker, descendants}, {
				graceMs,
				sweep,
				snapshot,
				endEscaped: containment === 'portable' ? killWithDescendants : undefined,
			});
		},
		resources: () => unmeasured,
		limitMemory: () => false,
		limitCpu: () => false,
		oomKills: () => null,
		release() {
			if (track && leader !== null) tracker.unwatch(leader.pid);
		},
	};
}

/** tree-kill signals the pid and every descendant `ps` still shows, after the start-time check. */
function killWithDescendants(stat: ProcStat): boolean {
	if (!isStillRunning(identityOf(stat))) return false;
	treeKill(stat.pid, 'SIGKILL');
	return true;
}
