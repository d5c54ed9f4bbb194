import {z} from 'zod';
// Schemas from their own files, not the folders' index.ts: a decision is read by report and ls, which run no agent and no controller.
import {AgentIdentity} from '../../agents/agent-identity.js';
import {PairedStatistics} from './statistics.js';
import {AcceptancePolicy} from '../plan/experiment-policy.js';
import {Integrity, Totals} from '../attempt/report/report-schema.js';
import {RuleCheck} from './acceptance.js';
import {ControllerFailureReason} from '../controller/call-failure.js';
import {Insufficient} from './insufficient.js';
import {RetriedEntry} from './retried-entries.js';

export const decisionSchema = 'harness-lab/decision@1';

const SideRef = z.object({
	report: z.string(),
	attempt_id: z.string().nullable(),
	totals: Totals.nullable(),
	/** The side's report's integrity label; null when its report could not be read, or in decisions written before the labels. */
	integrity: Integrity.nullable().default(null),
	/** How the side's ledger was sealed (`sealed`, `unsealed`: before the seal, `no_key`: not verifiable here); null when its report could not be read, and in decisions from before the seal. */
	seal: z.enum(['sealed', 'unsealed', 'no_key']).nullable().default(null),
	/** The third-party agent the side ran (adapter, package, installed digest, config digest); absent or null otherwise and in older decisions. */
	agent: AgentIdentity.nullable().optional(),
});

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
	/** For supervised hosts, the per-task wall times added up, beside the whole-attempt figures above; null otherwise. */
	baseline_task_sum_ms: z.number().nonnegative().nullable().default(null),
	candidate_task_sum_ms: z.number().nonnegative().nullable().default(null),
});
export type DecisionTiming = z.infer<typeof DecisionTiming>;

/**
 * A decision's outcome: `revise` only ever comes from a pinned controller; `insufficient` only from the built-in rule,
 * when every other check holds and the improvement favours the candidate but is not significant at `min_confidence`.
 */
export const DecisionOutcome = z.enum(['accept', 'reject', 'revise', 'insufficient']);
export type DecisionOutcome = z.infer<typeof DecisionOutcome>;

/** What a pinned controller's `accept` answered, or why it gave no answer. */
export const ControllerVerdict = z.object({
	decision: z.enum(['accept', 'reject', 'revise']).nullable(),
	reason: z.string().nullable(),
	failure: z.object({reason: ControllerFailureReason, message: z.string()}).nullable(),
});
export type ControllerVerdict = z.infer<typeof ControllerVerdict>;

export const Decision = z.object({
	schema: z.literal(decisionSchema),
	decided_at: z.string(),
	plan_digest: z.string().nullable(),
	/** The hypothesis frozen into the plan, null when it has none. */
	hypothesis: z.string().nullable().default(null),
	decision: DecisionOutcome,
	/** The built-in rule for built-in plans; the pinned controller's `accept` for controller plans. Null in decisions written before controllers decided. */
	decided_by: z.enum(['builtin-rule', 'controller']).nullable().default(null),
	/** Every check in order; the decision is `accept` only when all are satisfied. */
	checks: z.array(RuleCheck),
	/** For controller plans: the `accept` answer, which is the decision once every verification holds; null when it was not asked. */
	controller: ControllerVerdict.nullable().default(null),
	/** The folder, beside the decision file, that keeps every controller call the compare made; null when none was kept. */
	evidence: z.string().nullable().default(null),
	policy: AcceptancePolicy.nullable(),
	duration_ratio: z.number().nullable(),
	/** Null in decisions written before timings were checked. */
	timing: DecisionTiming.nullable().default(null),
	baseline: SideRef,
	candidate: SideRef,
	tasks: z.array(TaskRow),
	/** Entries whose provider was retried or that the infrastructure failed, reported apart; each still counts once, as it ran. Empty in decisions written before. */
	retried: z.array(RetriedEntry).default([]),
	/** For an `insufficient` decision: the statistic that fell short and the trials per task that would show it; null otherwise. */
	insufficient: Insufficient.nullable().default(null),
	/** With repeated trials: per-task pass rates and paired statistics over tasks × trials; null for single trials. */
	statistics: PairedStatistics.nullable().default(null),
});
export type Decision = z.infer<typeof Decision>;
