import {z} from 'zod';
import {AcceptancePolicy} from '../plan/experiment-policy.js';
import {Totals} from '../attempt/report-schema.js';
import {RuleCheck} from './acceptance.js';

export const decisionSchema = 'harness-lab/decision@1';

const SideRef = z.object({report: z.string(), attempt_id: z.string().nullable(), totals: Totals.nullable()});

export const TaskRow = z.object({
	task_id: z.string(),
	baseline: z.object({status: z.string(), reason: z.string().nullable(), turns: z.number().nullable(), total_tokens: z.number().nullable(), wall_ms: z.number().nullable()}).nullable(),
	candidate: z.object({status: z.string(), reason: z.string().nullable(), turns: z.number().nullable(), total_tokens: z.number().nullable(), wall_ms: z.number().nullable()}).nullable(),
});
export type TaskRow = z.infer<typeof TaskRow>;

/** Where the wall times of the duration rule came from, or why the comparison was refused. */
export const DecisionTiming = z.object({
	kind: z.enum(['supervised', 'unsupervised', 'refused']),
	reason: z.enum(['mixed_timing', 'process_record']).nullable(),
	message: z.string(),
	baseline_wall_ms: z.number().nonnegative().nullable(),
	candidate_wall_ms: z.number().nonnegative().nullable(),
});
export type DecisionTiming = z.infer<typeof DecisionTiming>;

export const Decision = z.object({
	schema: z.literal(decisionSchema),
	decided_at: z.string(),
	plan_digest: z.string().nullable(),
	decision: z.enum(['accept', 'reject']),
	/** Every check in order; the decision is `accept` only when all are satisfied. */
	checks: z.array(RuleCheck),
	policy: AcceptancePolicy.nullable(),
	duration_ratio: z.number().nullable(),
	/** Null in decisions written before timings were checked. */
	timing: DecisionTiming.nullable().default(null),
	baseline: SideRef,
	candidate: SideRef,
	tasks: z.array(TaskRow),
});
export type Decision = z.infer<typeof Decision>;
