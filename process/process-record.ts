import {z} from 'zod';
import {Containment} from './containment.js';
import {MemoryLimit} from './memory-limit.js';
import {CpuLimit} from './cpu-limit.js';
import {Sandbox} from './sandbox/sandbox-options.js';

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
/** `spawner`: the spawner that ran the command for the supervisor ended or hung before it answered; the tree was ended. */
export const ProcessFailure = z.enum(['spawn', 'timeout', 'stdout_limit', 'stderr_limit', 'aborted', 'spawner']);
export type ProcessFailure = z.infer<typeof ProcessFailure>;

export const StreamCount = z.object({
	/** Every byte read from the pipe, including what was discarded past the limit; null when the process that read it was lost (a spawner) before it told. */
	bytes_seen: z.number().int().nonnegative().nullable(),
	/** Bytes kept (never more than the limit). */
	bytes_kept: z.number().int().nonnegative(),
	limit: z.number().int().positive().nullable(),
	/** Whether the output went past its limit; null when that is unknown, as `bytes_seen`. */
	overflowed: z.boolean().nullable(),
});

/** What the tree used, measured by its cgroup; null where the backend or the kernel cannot tell. */
export const TreeResources = z.object({
	cpu_user_ms: z.number().nonnegative().nullable(),
	cpu_system_ms: z.number().nonnegative().nullable(),
	peak_memory_bytes: z.number().int().nonnegative().nullable(),
	peak_processes: z.number().int().nonnegative().nullable(),
});
export type TreeResources = z.infer<typeof TreeResources>;

/** The supervisor's own account of one process tree: it becomes `process.json`. */
export const ProcessRecord = z.object({
	schema: z.literal('harness-lab/process@2'),
	/** How the tree was held together and ended: its own cgroup, the /proc sweep, or the portable ps-based backend. */
	containment: Containment,
	argv: z.array(z.string()),
	cwd: z.string(),
	pid: z.number().int().nullable(),
	pgid: z.number().int().nullable(),
	/** The environment entry (`KEY=value`) every member of the tree inherits, unless it clears its environment. */
	marker: z.string(),
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
	/** Pids that outlived the command (or left its group) and were ended by cleanup: the tree's leaks. */
	leaks: z.array(z.number().int()),
	/** Pids of the tree still alive after cleanup; anything here is a supervisor defect. */
	survivors: z.array(z.number().int()),
	/** From the end (or the deadline, limit or abort) to the last member gone. */
	cleanup_ms: z.number().nonnegative(),
	resources: TreeResources,
	/** The memory limit the tree ran under; null: none. Absent before memory limits. */
	memory_limit: MemoryLimit.nullable().optional(),
	/** The CPU limit the tree ran under; null: none (or the backend could not set one). Absent before CPU limits. */
	cpu_limit: CpuLimit.nullable().optional(),
	/** The bubblewrap sandbox the command ran in (argv above is the command inside it); null: none. Absent before sandboxes. */
	sandbox: Sandbox.nullable().optional(),
});
export type ProcessRecord = z.infer<typeof ProcessRecord>;

/** What a record says before anything of the process is known (it never started, or its spawner was lost): each measure unknown. */
export function blankRecord(known: Pick<ProcessRecord, 'containment' | 'argv' | 'cwd' | 'marker' | 'started_at' | 'wall_ms' | 'timed_out' | 'failure' | 'failure_message' | 'stdout' | 'stderr' | 'sandbox'>): ProcessRecord {
	return {
		schema: 'harness-lab/process@2',
		containment: known.containment,
		argv: known.argv,
		cwd: known.cwd,
		pid: null,
		pgid: null,
		marker: known.marker,
		started_at: known.started_at,
		ended_at: new Date().toISOString(),
		wall_ms: known.wall_ms,
		exit_code: null,
		signal: null,
		timed_out: known.timed_out,
		failure: known.failure,
		failure_message: known.failure_message,
		stdout: known.stdout,
		stderr: known.stderr,
		killed: [],
		leaks: [],
		survivors: [],
		cleanup_ms: 0,
		resources: {cpu_user_ms: null, cpu_system_ms: null, peak_memory_bytes: null, peak_processes: null},
		memory_limit: null,
		cpu_limit: null,
		sandbox: known.sandbox,
	};
}
