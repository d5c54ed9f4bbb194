import {z} from 'zod';
import {PlanProvider} from '../plan/plan-schema.js';
import {SearchPolicy} from './policy-schema.js';
import {Comparison, PlanOutcome, ProviderBinding, ReplicateFeedback, SearchContext, SearchNode} from './search-record.js';
import {Spend} from './spend.js';
import {LedgerEntry} from './spending-ledger.js';

export const searchReportSchema = 'harness-lab/search-report@1';

export const StopReason = z.enum(['max-rounds', 'spending-limit', 'spending-exceeded', 'no-proposal', 'provider-error', 'run-refused', 'interrupted', 'error']);
export type StopReason = z.infer<typeof StopReason>;

/** One replicate of a node: a real supervised attempt with its own evidence directory. */
export const ReplicateRecord = z.object({
	seed: z.number().int(),
	/** The attempt's evidence directory, relative to the search's folder. */
	evidence: z.string(),
	plan_digest: z.string(),
	feedback: ReplicateFeedback,
	/** What the provider filter keeps back, recorded for people: tasks passed of the suite. */
	passed: z.number().int().nonnegative(),
}).strict();
export type ReplicateRecord = z.infer<typeof ReplicateRecord>;

export const RoundRecord = z.object({
	round: z.number().int().positive(),
	node_id: z.string(),
	replicates: z.array(ReplicateRecord),
	comparisons: z.array(Comparison),
	plans: z.array(z.object({context: SearchContext, outcome: PlanOutcome}).strict()),
	/** The spending entries of the round, in the order the units reserved. */
	spending: z.array(LedgerEntry),
}).strict();
export type RoundRecord = z.infer<typeof RoundRecord>;

/** `search-report.json`: written whatever ends the search, before its error is raised. */
export const SearchReport = z.object({
	schema: z.literal(searchReportSchema),
	policy: SearchPolicy,
	policy_fingerprint: z.string(),
	search: ProviderBinding,
	mutation: ProviderBinding,
	/** Where the root came from: `builtin`, or a harness file's path. */
	root: z.string(),
	suite: z.array(z.string()),
	seeds: z.array(z.number().int()),
	provider: PlanProvider,
	nodes: z.array(SearchNode),
	rounds: z.array(RoundRecord),
	stop_reason: StopReason,
	/** What stopped it; an error by its type and the unit it interrupted, never its message. */
	stop_detail: z.string(),
	spent: Spend,
	limits: Spend,
	started_at: z.string(),
	ended_at: z.string(),
}).strict();
export type SearchReport = z.infer<typeof SearchReport>;
