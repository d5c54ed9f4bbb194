import {z} from 'zod';
import {digestJson, type Digest} from '../../files/digest.js';
import {HarnessCeilings, PatchOperationName} from '../../harness/index.js';
import {ModelRole} from './spend.js';

export const policySchemaVersion = 'harness-lab/search-policy@1';

/**
 * What a search may spend in total. Token limits are per unit, never added together. A money limit may be
 * written only to be refused: money is not metered, so a search that declares one does not start.
 */
export const SearchEnvelope = z.object({
	max_rounds: z.number().int().positive(),
	/** One per execution replicate: three candidates on three seeds are nine. */
	max_candidate_evaluations: z.number().int().positive(),
	max_task_attempts: z.number().int().positive(),
	/** Calls per role; a role not named may make none. */
	max_model_calls: z.partialRecord(ModelRole, z.number().int().nonnegative()),
	/** Tokens per unit, e.g. `{"tokens(agent)": 200000}`. */
	token_limits: z.record(z.string(), z.number().int().positive()),
	/** The declared worst case of one agent model call, in `tokens(agent)`: what each call reserves. */
	agent_call_tokens: z.number().int().positive().optional(),
	/** The declared worst case of one provider model call, in `tokens(provider)`. */
	provider_call_tokens: z.number().int().positive().optional(),
	max_cost_usd: z.number().optional(),
}).strict();
export type SearchEnvelope = z.infer<typeof SearchEnvelope>;

/** What an experiment authorizes a harness search to do, fixed for the whole search; the fingerprint covers all of it. */
export const SearchPolicy = z.object({
	schema: z.literal(policySchemaVersion),
	/** No default: without this, exactly, no candidate is generated without a person. */
	autonomous_search: z.literal('authorized'),
	authorized_tools: z.array(z.string()),
	allowed_operations: z.array(PatchOperationName).min(1),
	ceilings: HarnessCeilings,
	/** How many refused patches a planner asks again for in one plan. */
	max_retries: z.number().int().nonnegative(),
	/** A comparison has a verdict only when the difference exceeds k standard errors across replicates. */
	comparison_k: z.number().positive().default(2),
	envelope: SearchEnvelope,
}).strict();
export type SearchPolicy = z.infer<typeof SearchPolicy>;

export function fingerprintPolicy(policy: SearchPolicy): Digest {
	return digestJson(SearchPolicy.parse(policy));
}
