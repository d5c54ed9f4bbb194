import {z} from 'zod';

/** How a pid was ended during cleanup. */
export const KillHow = z.enum(['term', 'kill', 'sweep']);

export const KilledProcess = z.object({
	pid: z.number().int(),
	comm: z.string().nullable(),
	how: KillHow,
	/** Whether the pid was still in the group when it was signalled; a swept pid had left it. */
	in_group: z.boolean(),
});
export type KilledProcess = z.infer<typeof KilledProcess>;

/** Why a supervised run did not end on its own. `null` means it exited by itself. */
export const ProcessFailure = z.enum(['spawn', 'timeout', 'stdout_limit', 'stderr_limit', 'aborted']);
export type ProcessFailure = z.infer<typeof ProcessFailure>;

export const StreamCount = z.object({
	/** Every byte read from the pipe, including what was discarded past the limit. */
	bytes_seen: z.number().int().nonnegative(),
	/** Bytes kept (never more than the limit). */
	bytes_kept: z.number().int().nonnegative(),
	limit: z.number().int().positive().nullable(),
	overflowed: z.boolean(),
});

/** The supervisor's own account of one process tree: it becomes `process.json`. */
export const ProcessRecord = z.object({
	schema: z.literal('harness-lab/process@1'),
	argv: z.array(z.string()),
	cwd: z.string(),
	pid: z.number().int().nullable(),
	pgid: z.number().int().nullable(),
	/** The environment marker every member of the tree inherits. */
	tag: z.string(),
	started_at: z.string(),
	ended_at: z.string(),
	/** Monotonic-clock time from spawn until the leader exited (by itself or by cleanup). */
	wall_ms: z.number().nonnegative(),
	exit_code: z.number().int().nullable(),
	signal: z.string().nullable(),
	timed_out: z.boolean(),
	failure: ProcessFailure.nullable(),
	/** A one-line explanation when `failure` is set. */
	failure_message: z.string().nullable(),
	stdout: StreamCount,
	stderr: StreamCount,
	killed: z.array(KilledProcess),
	/** Pids of the tree still alive after cleanup; anything here is a supervisor defect. */
	survivors: z.array(z.number().int()),
	/** From the end (or the deadline, limit or abort) to the last member gone. */
	cleanup_ms: z.number().nonnegative(),
});
export type ProcessRecord = z.infer<typeof ProcessRecord>;
