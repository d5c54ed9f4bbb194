import {z} from 'zod';
import {Usage} from '../../engine/outcome.js';
import {HostFailureReason} from './host-failure.js';

export const hostAttemptSchema = 'harness-lab/host-attempt@1';
export const hostTaskSchema = 'harness-lab/host-task@1';
export const hostCheckpointSchema = 'harness-lab/host-checkpoint@1';

const Identity = z.object({launched: z.string(), path: z.string(), kind: z.enum(['build', 'file']), digest: z.string(), problems: z.array(z.string())});

/** `<artifacts>.host/host.json`: the executable and plan the attempt ran, and the supervisor that ran it. */
export const HostAttemptRecord = z.object({
	schema: z.literal(hostAttemptSchema),
	plan_digest: z.string(),
	task_ids: z.array(z.string()),
	binary: Identity,
	supervisor: z.object({pid: z.number().int(), node_path: z.string(), node_digest: z.string().nullable(), build_digest: z.string()}),
	started_at: z.string(),
	/** Filled when the attempt closes: the same measurements taken again, and the tasks the worker answered. */
	closed: z.object({
		ended_at: z.string(),
		binary_digest: z.string(),
		binary_unchanged: z.boolean(),
		supervisor_build_digest: z.string(),
		supervisor_unchanged: z.boolean(),
		answered: z.array(z.string()),
		unanswered: z.array(z.string()),
		/** Monotonic: the first launch's start to the last launch's end; null when no task launched. */
		attempt_wall_ms: z.number().nonnegative().nullable().default(null),
		/** The launched tasks' wall times added up, reported beside the whole-attempt figure. */
		task_sum_ms: z.number().nonnegative().nullable().default(null),
	}).nullable(),
});
export type HostAttemptRecord = z.infer<typeof HostAttemptRecord>;

/** `tasks/NNN-id/checkpoint.json`, written before the launch: the task starts from this fresh state. */
export const HostCheckpoint = z.object({
	schema: z.literal(hostCheckpointSchema),
	index: z.number().int().nonnegative(),
	task_id: z.string(),
	plan_digest: z.string(),
	binary_digest: z.string(),
	workspace: z.string(),
	/** Digests of the workspace files right after setup, before the host touched them. */
	workspace_files: z.record(z.string(), z.string()),
	state_dir: z.string(),
	/** Entries already in the state folder (a fresh task has none). */
	state_entries: z.number().int().nonnegative(),
	deadline_ms: z.number().int().positive(),
	written_at: z.string(),
});
export type HostCheckpoint = z.infer<typeof HostCheckpoint>;

/** The requests a task's metering proxy answered itself instead of forwarding them to the provider. */
export const ProxyRefusals = z.object({
	/** Requests for a model other than the plan's (or naming none). */
	count: z.number().int().nonnegative(),
	/** The models those requests asked for (null: none named), each once, the first few. */
	models: z.array(z.string().nullable()),
	/** Requests with no conversation to send (not JSON, no messages or input, too big). */
	malformed: z.number().int().nonnegative(),
});
export type ProxyRefusals = z.infer<typeof ProxyRefusals>;

/** `tasks/NNN-id/host-task.json`: the supervisor's verdict on one launch. */
export const HostTaskRecord = z.object({
	schema: z.literal(hostTaskSchema),
	index: z.number().int().nonnegative(),
	task_id: z.string(),
	plan_digest: z.string(),
	binary: z.object({launched: z.string(), digest: z.string()}),
	/** What the worker said it was, or null when it gave no valid answer. */
	claimed_binary: z.object({path: z.string(), digest: z.string()}).nullable(),
	exit_code: z.number().int().nullable(),
	signal: z.string().nullable(),
	wall_ms: z.number().nonnegative(),
	/** Monotonic milliseconds since the session opened, just before the launch and just after its group ended. */
	started_ms: z.number().nonnegative().nullable().default(null),
	ended_ms: z.number().nonnegative().nullable().default(null),
	/** Turns and tokens the supervisor counted at the provider boundary (the task's own metering proxy). */
	metered_usage: Usage.nullable().default(null),
	/** What the worker said it used; only a claim, compared with the metering. */
	claimed_usage: Usage.nullable().default(null),
	/** What the metering proxy refused; absent in records written before it checked requests. */
	proxy_refusals: ProxyRefusals.nullable().default(null),
	failure: z.object({reason: HostFailureReason, message: z.string()}).nullable(),
	/** Whether the worker's answer was accepted as this task's outcome. */
	answered: z.boolean(),
});
export type HostTaskRecord = z.infer<typeof HostTaskRecord>;
