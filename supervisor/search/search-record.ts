import {z} from 'zod';
import {digestJson, type Digest} from '../../files/digest.js';
import {Harness, HarnessCeilings, HarnessFingerprint, HarnessPatch, HarnessProposal, PatchOperationName} from '../../harness/index.js';
import {Spend} from './spend.js';

/*
 * What a search records and what its providers see. Every value a provider is given is one of these, so what
 * reaches a provider is visible in one file: run values after the provider filter, per-task execution
 * measurements, and comparisons computed from them; never a single task's verdict.
 */

/** One task's execution as a provider may see it: measurements, not whether it passed. */
export const ExecutionMeasure = z.object({
	task_id: z.string(),
	turns: z.number().int().nonnegative().nullable(),
	total_tokens: z.number().int().nonnegative().nullable(),
	wall_ms: z.number().nonnegative().nullable(),
}).strict();

/** One replicate (a seed) of a node, as the provider filter lets it through. */
export const ReplicateFeedback = z.object({
	seed: z.number().int(),
	tasks: z.number().int().nonnegative(),
	/** The share of the suite that passed; null (withheld) when the suite is one task, where it would be that task's verdict. */
	score: z.number().min(0).max(1).nullable(),
	/** Model turns over the whole suite; null when one task's turns are unknown. */
	turns: z.number().int().nonnegative().nullable(),
	executions: z.array(ExecutionMeasure),
}).strict();
export type ReplicateFeedback = z.infer<typeof ReplicateFeedback>;

export const Objective = z.enum(['score', 'turns']);
export type Objective = z.infer<typeof Objective>;

/** Two nodes compared on one objective across their replicates. */
export const Comparison = z.object({
	a: z.string(),
	b: z.string(),
	objective: Objective,
	status: z.enum(['compared', 'withheld-from-provider']),
	/** Mean of a minus mean of b; null when withheld or unknown. */
	difference: z.number().nullable(),
	standard_error: z.number().nullable(),
	k: z.number().positive(),
	/** `better`/`worse` for a, in the objective's direction, only when |difference| > k standard errors. */
	verdict: z.enum(['better', 'worse', 'no-difference']).nullable(),
}).strict();
export type Comparison = z.infer<typeof Comparison>;

export const NodeView = z.object({
	node_id: z.string(),
	fingerprint: z.string(),
	parent_ids: z.array(z.string()),
	status: z.enum(['evaluated', 'failed', 'pending']),
	feedback: z.array(ReplicateFeedback),
}).strict();
export type NodeView = z.infer<typeof NodeView>;

/** Everything a planner is given in one plan; its digest is what replay checks first. */
export const SearchContext = z.object({
	round: z.number().int().positive(),
	nodes: z.array(NodeView),
	comparisons: z.array(Comparison),
	/** Nodes the mutation provider had nothing more for: they must not be chosen again. */
	exhausted: z.array(z.string()),
	/** Proposal fingerprints already taken, oldest first. */
	history: z.array(z.string()),
	spent: Spend,
	limits: Spend,
}).strict();
export type SearchContext = z.infer<typeof SearchContext>;

export function fingerprintContext(context: SearchContext): Digest {
	return digestJson(SearchContext.parse(context));
}

export const Choice = z.discriminatedUnion('kind', [
	z.object({kind: z.literal('base'), node_id: z.string(), rationale: z.string()}).strict(),
	z.object({kind: z.literal('none'), reason: z.string()}).strict(),
]);
export type Choice = z.infer<typeof Choice>;

/** What a mutation provider is asked (its base harness comes with it, by node). */
export const MutationRequest = z.object({
	base_node_id: z.string(),
	base: HarnessFingerprint,
	allowed_operations: z.array(PatchOperationName),
	ceilings: HarnessCeilings,
	/** The base's lineage, base first: the provider-safe feedback of each node. */
	feedback: z.array(NodeView),
	existing: z.array(z.string()),
	/** Patch fingerprints refused earlier in this plan. */
	refused: z.array(z.string()),
	round: z.number().int().positive(),
	attempt: z.number().int().nonnegative(),
}).strict();
export type MutationRequest = z.infer<typeof MutationRequest>;

export const PatchRefusal = z.object({
	patch_fingerprint: z.string(),
	operations: z.array(z.string()),
	reasons: z.array(z.string()),
}).strict();

/** A proposal as a search acts on it: which node it patches and why. */
export const SearchProposal = HarnessProposal.extend({parent_id: z.string(), reason: z.string()}).strict();
export type SearchProposal = z.infer<typeof SearchProposal>;

export const PlanOutcome = z.object({
	context_fingerprint: z.string(),
	choice: Choice,
	requests: z.array(MutationRequest),
	/** What the mutation provider answered to each request: a patch, or null for none. */
	responses: z.array(HarnessPatch.nullable()),
	refusals: z.array(PatchRefusal),
	proposal: SearchProposal.nullable(),
	/** The node the mutation provider had nothing more for, in this plan. */
	exhausted: z.string().nullable(),
	reason: z.string(),
}).strict();
export type PlanOutcome = z.infer<typeof PlanOutcome>;

/** How a provider is bound: replay refuses providers bound otherwise. */
export const ProviderBinding = z.object({kind: z.string(), version: z.number().int(), config: z.record(z.string(), z.json())}).strict();
export type ProviderBinding = z.infer<typeof ProviderBinding>;

export const SearchNode = z.object({
	node_id: z.string(),
	harness: Harness,
	fingerprint: z.string(),
	parent_ids: z.array(z.string()),
	/** The fingerprint of the proposal that made it; null for the root. */
	created_by: z.string().nullable(),
}).strict();
export type SearchNode = z.infer<typeof SearchNode>;
