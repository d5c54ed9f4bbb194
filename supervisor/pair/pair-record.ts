import {z} from 'zod';
import {Usage} from '../../engine/outcome.js';
import {TaskResult} from '../attempt/report/report-schema.js';
import {SideLeaks} from './side-leaks.js';

export const pairSchema = 'harness-lab/pair@1';

export const SideName = z.enum(['baseline', 'candidate']);
export type SideName = z.infer<typeof SideName>;

/** A file copied into the pair's `inputs/` before admission, with the digest of the copy. */
export const InputCopy = z.object({
	/** Where it came from (absolute). */
	source: z.string(),
	/** Relative to the pair folder. */
	copy: z.string(),
	digest: z.string(),
});

export const ExecutableSnapshot = InputCopy.extend({
	kind: z.enum(['build', 'file']),
	/** The measured identity: the overall build digest, or the file digest. */
	identity_digest: z.string(),
	/** For a build: the copied build.json, the recorded digest, and what differs from it on disk. */
	build: z.object({record: z.string(), recorded_digest: z.string(), source_digest: z.string(), commit: z.string(), dirty: z.boolean(), problems: z.array(z.string())}).nullable(),
});
export type ExecutableSnapshot = z.infer<typeof ExecutableSnapshot>;

export const SourceSnapshot = InputCopy.extend({
	commit: z.string().nullable(),
	dirty: z.boolean().nullable(),
	source_digest: z.string().nullable(),
	problems: z.array(z.string()),
	/** Whether the executable's build.json names the same source state; recorded, never proof. */
	matches_build: z.boolean().nullable(),
});
export type SourceSnapshot = z.infer<typeof SourceSnapshot>;

/** One task of one side, as its ledger recorded it, or `missing` (a failure) when it has no record. */
export const PairTaskSide = z.object({
	status: z.enum(['passed', 'failed', 'missing']),
	// The task's reason as its side's ledger recorded it.
	reason: TaskResult.shape.reason,
	message: z.string().nullable(),
	usage: Usage.nullable(),
	wall_ms: z.number().nonnegative().nullable(),
	recorded_at: z.string().nullable(),
});
export type PairTaskSide = z.infer<typeof PairTaskSide>;

export const PairTask = z.object({index: z.number().int().nonnegative(), task_id: z.string(), baseline: PairTaskSide, candidate: PairTaskSide});
export type PairTask = z.infer<typeof PairTask>;

export const SideRecord = z.object({
	state: z.enum(['pending', 'running', 'ended', 'refused', 'not_started']),
	argv: z.array(z.string()),
	/** Relative to the pair folder. */
	artifacts: z.string(),
	process: z.string().nullable(),
	stdout: z.string().nullable(),
	stderr: z.string().nullable(),
	exit_code: z.number().int().nullable(),
	signal: z.string().nullable(),
	failure: z.string().nullable(),
	wall_ms: z.number().nonnegative().nullable(),
	report: z.object({path: z.string(), digest: z.string(), completion: z.string(), passed: z.boolean()}).nullable(),
	/** A side is comparable only when its process ended on its own and its report is complete for this plan. */
	comparable: z.boolean(),
	/** What outlived the side, as `hlab supervise` reports it; absent in pair files that predate it, null before the side ended. */
	leaks: SideLeaks.nullable().optional(),
	problems: z.array(z.string()),
});
export type SideRecord = z.infer<typeof SideRecord>;

export const PairRecord = z.object({
	schema: z.literal(pairSchema),
	created_at: z.string(),
	updated_at: z.string(),
	status: z.enum(['running', 'finished', 'interrupted', 'refused']),
	mode: z.enum(['candidate-file', 'candidate-host']),
	timeout_s: z.number().positive(),
	plan: InputCopy.extend({plan_digest: z.string(), task_ids: z.array(z.string())}),
	inputs: z.object({
		baseline: ExecutableSnapshot,
		source_baseline: SourceSnapshot,
		candidate_host: ExecutableSnapshot.nullable(),
		source_candidate: SourceSnapshot.nullable(),
		candidate_file: InputCopy.nullable(),
	}),
	sides: z.object({baseline: SideRecord, candidate: SideRecord}),
	/** The fixed denominator, in frozen order; it never shrinks. */
	tasks: z.array(PairTask),
	comparison: z.object({
		argv: z.array(z.string()).nullable(),
		process: z.string().nullable(),
		exit_code: z.number().int().nullable(),
		decision_path: z.string().nullable(),
		/** `accept`, `reject`, (a pinned controller's) `revise` or (not significant yet) `insufficient` from the baseline's compare, or `reject` when a side cannot be compared. */
		decision: z.enum(['accept', 'reject', 'revise', 'insufficient']),
		reason: z.string(),
	}).nullable(),
	interruption: z.object({signal: z.string(), at: z.string()}).nullable(),
	problems: z.array(z.string()),
});
export type PairRecord = z.infer<typeof PairRecord>;
