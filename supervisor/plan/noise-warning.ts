import type {Plan} from './plan-schema.js';

/** Improvements the margin applies to; a pass-rate rule is judged on passes, which repeats and `min_confidence` guard. */
const readsUsage = new Set(['turns', 'tokens', 'turns-or-tokens']);

/**
 * One trial per task and no `min_effect`: the rule takes any saving in turns or tokens, however small, as an
 * improvement, though the same baseline run twice differs by a few percent. Null when the plan guards against that.
 */
export function noiseWarning(plan: Plan): string | null {
	const acceptance = plan.policy.acceptance;
	if (plan.controller !== null || plan.repeat > 1 || acceptance.min_effect !== undefined || !readsUsage.has(acceptance.improvement)) return null;
	return `warning: the acceptance rule has no min_effect and the plan runs one trial per task, so any saving in ${acceptance.improvement.replaceAll('-', ' ')}, however small, counts as an improvement; measure the noise with hlab eval --plan PLAN --calibrate --out DIR and set min_effect, or freeze with --repeat (docs/statistics.md)`;
}
