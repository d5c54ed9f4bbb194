import type {Containment} from '../../process/index.js';

/** One synthetic process tree and what the supervisor must do with it. */
export interface CleanupScenario {
	name: string;
	description: string;
	/** A shell script; every process it starts appends its own pid to "$PIDS". */
	script: string;
	timeoutMs: number | null;
	graceMs: number;
	/** The failure the record must name (null: the leader exits by itself). */
	expectedFailure: 'timeout' | null;
	/** The supervisor must have returned within this long. */
	maxWallMs: number;
	/** The backends that can end every process of this tree; with another one a failure is expected and said so. */
	caughtBy: readonly Containment[];
	/** Whether the proc and portable backends poll for the tree's descendants (default true). */
	trackDescendants?: boolean;
}

const every = ['cgroup', 'proc', 'portable'] as const;

const pid = 'echo $$ >> "$PIDS"';

/** The scenarios of `hlab check process-cleanup`, in the order they run. */
export const cleanupScenarios: CleanupScenario[] = [
	{
		name: 'clean_exit',
		description: 'a command that exits 0 and starts nothing',
		script: `${pid}; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000, caughtBy: every,
	},
	{
		name: 'successful_parent_leaves_children',
		description: 'the leader exits 0 while two children keep running',
		script: `${pid}; sh -c '${pid}; exec sleep 300' & sh -c '${pid}; exec sleep 300' & sleep 0.2; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000, caughtBy: every,
	},
	{
		name: 'failed_parent_leaves_children',
		description: 'the leader exits 3 while a child keeps running',
		script: `${pid}; sh -c '${pid}; exec sleep 300' & sleep 0.2; exit 3`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000, caughtBy: every,
	},
	{
		name: 'deadline_ignores_term',
		description: 'a tree whose members ignore SIGTERM and SIGHUP reaches its deadline',
		script: `trap '' TERM HUP; ${pid}; sh -c "trap '' TERM HUP; ${pid}; exec sleep 300" & sh -c "trap '' TERM HUP; ${pid}; exec sleep 300" & wait`,
		timeoutMs: 500, graceMs: 500, expectedFailure: 'timeout', maxWallMs: 500 + 500 + 1000, caughtBy: every,
	},
	{
		name: 'setsid_grandchild',
		description: 'a grandchild double-forks into a new session and its parent exits at once (a daemon)',
		// The leader exits once the daemon has written its pid: on a loaded machine it could otherwise still be in the
		// group when the group is signalled, and be ended there instead of being found by the sweep.
		script: `${pid}; setsid -f sh -c '${pid}; sh -c "${pid}; exec sleep 300" & exit 0'; until [ "$(wc -l < "$PIDS")" -ge 3 ]; do sleep 0.02; done; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000, caughtBy: every,
	},
	{
		name: 'escaped_without_tag',
		description: 'a grandchild leaves the group with a cleared environment; only the tracked ancestry finds it',
		script: `${pid}; env -i PIDS="$PIDS" setsid sh -c '${pid}; exec sleep 300' & sleep 0.7; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000, caughtBy: every,
	},
	{
		name: 'pipe_held_open',
		description: 'a grandchild in a new session keeps the stdout pipe open after the leader exits',
		script: `${pid}; setsid sh -c '${pid}; echo still-here; exec sleep 300' & echo leader-done; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000, caughtBy: every,
	},
	{
		name: 'spawner_while_stopping',
		description: 'a leader that ignores SIGTERM keeps spawning children while it is being stopped',
		script: `trap '' TERM HUP; ${pid}; while true; do sh -c '${pid}; exec sleep 300' & sleep 0.02; done`,
		timeoutMs: 500, graceMs: 500, expectedFailure: 'timeout', maxWallMs: 500 + 500 + 1000, caughtBy: every,
	},
	{
		name: 'env_cleared_daemon',
		description: 'a daemon clears its environment and leaves the group with setsid; its parent exits as soon as it runs',
		script: `${pid}; env -i PIDS="$PIDS" setsid sh -c '${pid}; : > "$PIDS.up"; exec sleep 300' & while [ ! -e "$PIDS.up" ]; do :; done; exit 0`,
		// No marker, and its ancestry is gone before a poll can see it: only its cgroup still holds it. Whether a poll
		// falls into that short window depends on the machine's load, so the window is modelled by not polling at all.
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000, caughtBy: ['cgroup'], trackDescendants: false,
	},
];
