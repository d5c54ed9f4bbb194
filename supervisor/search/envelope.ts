import {InputError} from '../input-error.js';
import type {SearchEnvelope, SearchPolicy} from './policy-schema.js';
import type {Spend} from './spend.js';

/** The token unit of the agent's provider, and of a model-backed search provider: never added together. */
export const agentTokenUnit = 'tokens(agent)';
export const providerTokenUnit = 'tokens(provider)';

/** The envelope cannot be enforced; nothing ran. */
export class SpendingUnenforceableError extends InputError {
	readonly reason = 'spending-unenforceable';
	constructor(readonly reasons: string[]) {
		super(`spending-unenforceable: ${reasons.join('; ')}`);
	}
}

export interface EnvelopeUse {
	/** Whether a provider of the planner makes model calls (a model-backed one). */
	providerCalls: boolean;
}

/** Every reason the policy's envelope cannot bound what the search would spend; empty when it can. */
export function envelopeRefusals(policy: SearchPolicy, use: EnvelopeUse): string[] {
	const envelope = policy.envelope;
	const refusals: string[] = [];
	if (envelope.max_cost_usd !== undefined) refusals.push('a money limit cannot be enforced: money is not metered');
	refusals.push(...roleRefusals(envelope, 'agent', agentTokenUnit, envelope.agent_call_tokens, 'agent_call_tokens'));
	if (use.providerCalls) refusals.push(...roleRefusals(envelope, 'provider', providerTokenUnit, envelope.provider_call_tokens, 'provider_call_tokens'));
	return refusals;
}

/** A role that calls a model needs a call limit, a token limit in its unit, and a declared worst case per call. */
function roleRefusals(envelope: SearchEnvelope, role: 'agent' | 'provider', unit: string, perCall: number | undefined, field: string): string[] {
	return [
		...(envelope.max_model_calls[role] === undefined ? [`${role} model calls have no limit (max_model_calls.${role})`] : []),
		...(envelope.token_limits[unit] === undefined ? [`${unit} has no limit (token_limits)`] : []),
		...(perCall === undefined ? [`one ${role} call has no declared worst case (${field}), so its attempts are unbounded`] : []),
	];
}

/** Refuses the search before anything runs, with every reason. */
export function checkEnvelope(policy: SearchPolicy, use: EnvelopeUse): void {
	const refusals = envelopeRefusals(policy, use);
	if (refusals.length > 0) throw new SpendingUnenforceableError(refusals);
}

/** The envelope's limits as an amount of spend. */
export function envelopeLimits(envelope: SearchEnvelope): Spend {
	return {
		rounds: envelope.max_rounds,
		candidate_evaluations: envelope.max_candidate_evaluations,
		task_attempts: envelope.max_task_attempts,
		model_calls: envelope.max_model_calls,
		tokens: envelope.token_limits,
	};
}
