import {z} from 'zod';
import {ExecutionOutcome} from '../engine/outcome.js';
import {ResolvedProvider} from '../engine/provider-config.js';

/**
 * The host-worker protocol, version 1. The supervisor starts `EXE host-worker` once per task in its own process
 * group, writes one request as JSON on stdin (then closes it), and reads exactly one JSON line from stdout.
 * Diagnostics go to stderr. The worker runs the task's agent with its own engine and never grades.
 */
export const hostProtocolVersion = 1;

const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

export const HostRequest = z.object({
	version: z.literal(hostProtocolVersion),
	kind: z.literal('task'),
	task: z.object({id: z.string().min(1), prompt: z.string()}),
	/** A fresh workspace the supervisor set up; the grader inspects it after the worker ends. */
	workspace: z.string().min(1),
	/** Where journal.jsonl and messages.jsonl go; the supervisor exports them. */
	state_dir: z.string().min(1),
	provider: ResolvedProvider,
	max_steps: z.number().int().positive(),
	/** Milliseconds left for this task; the supervisor ends the process group when they run out. */
	deadline_ms: z.number().int().positive(),
	plan_digest: Digest,
	/** The digest the supervisor measured for the executable it launched; the worker must report its own. */
	expected_binary_digest: Digest,
}).strict();
export type HostRequest = z.infer<typeof HostRequest>;

export const HostResponse = z.object({
	version: z.literal(hostProtocolVersion),
	/** The exact binary that ran: the launcher's absolute path and the digest of its build (or file). */
	binary: z.object({path: z.string().min(1), digest: Digest}),
	task_id: z.string(),
	outcome: ExecutionOutcome,
}).strict();
export type HostResponse = z.infer<typeof HostResponse>;

/** The subcommand the supervisor runs: `EXE host-worker`. */
export const hostWorkerCommand = 'host-worker';
