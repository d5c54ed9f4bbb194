import {digestJson, digestScheme} from '../../files/digest.js';
import type {Plan} from './plan-schema.js';

/** The digest a plan should carry: over every field but `plan_digest` itself. */
export function computePlanDigest(plan: Omit<Plan, 'plan_digest'> & {plan_digest?: string}): string {
	const {plan_digest: _ignored, ...rest} = plan;
	return digestJson(rest);
}

export function sealPlan(plan: Omit<Plan, 'plan_digest' | 'digest_scheme'>): Plan {
	const withScheme = {...plan, digest_scheme: digestScheme};
	return {...withScheme, plan_digest: computePlanDigest(withScheme)};
}
