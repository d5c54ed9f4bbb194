import {z} from 'zod';
import {Decision, DecisionOutcome} from './decision-schema.js';

export const candidatesDecisionSchema = 'harness-lab/decisions@1';

export const CandidateVerdict = z.object({
	candidate: z.string(),
	/** The candidate's verdict in the family: its own decision's, except that an acceptance whose Holm-adjusted p-value misses `min_confidence` is `insufficient`. */
	verdict: DecisionOutcome,
	/** The improvement's p-value against the baseline (the sign test for `quality`, the bootstrap for turns and tokens); null without `min_confidence`, for `non-regression`, or when the reports could not be read. */
	p_value: z.number().min(0).max(1).nullable(),
	adjusted_p_value: z.number().min(0).max(1).nullable(),
	/** The candidate's own two-report decision, as `hlab eval --compare BASE,CANDIDATE` writes it. */
	decision: Decision,
});
export type CandidateVerdict = z.infer<typeof CandidateVerdict>;

/** One decision over several candidates against one baseline, with Holm's correction across them. */
export const CandidatesDecision = z.object({
	schema: z.literal(candidatesDecisionSchema),
	decided_at: z.string(),
	baseline: z.string(),
	correction: z.literal('holm'),
	/** The candidates whose p-values were adjusted together; 0 when the rule has no `min_confidence`. */
	family_size: z.number().int().nonnegative(),
	confidence: z.number().gt(0).lt(1).nullable(),
	candidates: z.array(CandidateVerdict).min(2),
	accepted: z.array(z.string()),
});
export type CandidatesDecision = z.infer<typeof CandidatesDecision>;
