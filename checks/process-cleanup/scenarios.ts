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
}

const pid = 'echo $$ >> "$PIDS"';

/** The scenarios of `hlab check process-cleanup`, in the order they run. */
export const cleanupScenarios: CleanupScenario[] = [
	{
		name: 'clean_exit',
		description: 'a command that exits 0 and starts nothing',
		script: `${pid}; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000,
	},
	{
		name: 'successful_parent_leaves_children',
		description: 'the leader exits 0 while two children keep running',
		script: `${pid}; sh -c '${pid}; exec sleep 300' & sh -c '${pid}; exec sleep 300' & sleep 0.2; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000,
	},
	{
		name: 'failed_parent_leaves_children',
		description: 'the leader exits 3 while a child keeps running',
		script: `${pid}; sh -c '${pid}; exec sleep 300' & sleep 0.2; exit 3`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000,
	},
	{
		name: 'deadline_ignores_term',
		description: 'a tree whose members ignore SIGTERM and SIGHUP reaches its deadline',
		script: `trap '' TERM HUP; ${pid}; sh -c "trap '' TERM HUP; ${pid}; exec sleep 300" & sh -c "trap '' TERM HUP; ${pid}; exec sleep 300" & wait`,
		timeoutMs: 500, graceMs: 500, expectedFailure: 'timeout', maxWallMs: 500 + 500 + 1000,
	},
	{
		name: 'setsid_grandchild',
		description: 'a grandchild double-forks into a new session and its parent exits at once (a daemon)',
		script: `${pid}; setsid -f sh -c '${pid}; sh -c "${pid}; exec sleep 300" & exit 0'; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000,
	},
	{
		name: 'escaped_without_tag',
		description: 'a grandchild leaves the group with a cleared environment; only the tracked ancestry finds it',
		script: `${pid}; env -i PIDS="$PIDS" setsid sh -c '${pid}; exec sleep 300' & sleep 0.7; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000,
	},
	{
		name: 'pipe_held_open',
		description: 'a grandchild in a new session keeps the stdout pipe open after the leader exits',
		script: `${pid}; setsid sh -c '${pid}; echo still-here; exec sleep 300' & echo leader-done; exit 0`,
		timeoutMs: 10_000, graceMs: 500, expectedFailure: null, maxWallMs: 5000,
	},
	{
		name: 'spawner_while_stopping',
		description: 'a leader that ignores SIGTERM keeps spawning children while it is being stopped',
		script: `trap '' TERM HUP; ${pid}; while true; do sh -c '${pid}; exec sleep 300' & sleep 0.02; done`,
		timeoutMs: 500, graceMs: 500, expectedFailure: 'timeout', maxWallMs: 500 + 500 + 1000,
	},
];
