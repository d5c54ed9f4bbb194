import type {ControllerClient} from '../controller/index.js';
import type {Plan} from '../plan/plan-schema.js';
import type {Report} from '../attempt/report/report-schema.js';
import type {RuleCheck} from './acceptance.js';
import {acceptSummary} from './accept-summary.js';
import type {Rescores} from './controller-rescore.js';
import type {ControllerVerdict} from './decision-schema.js';

/**
 * Asks the pinned controller's `accept` to decide on two verified, re-scored reports under the declared policy.
 * Its answer is the verdict; a call that fails is a rejection that names the failure's reason.
 */
export async function acceptWithController(plan: Plan, reports: {baseline: Report; candidate: Report}, rescores: Rescores, client: ControllerClient): Promise<{verdict: ControllerVerdict; check: RuleCheck}> {
	const answer = await client.call('accept', {
		baseline: acceptSummary(reports.baseline, rescores.baseline),
		candidate: acceptSummary(reports.candidate, rescores.candidate),
		policy: plan.policy,
	});
	if (!answer.ok) {
		return {
			verdict: {decision: null, reason: null, failure: {reason: answer.error.reason, message: answer.error.message}},
			check: {rule: 'controller', satisfied: false, message: `the pinned controller's accept failed (${answer.error.reason}): ${answer.error.message}`},
		};
	}
	const {decision, reason} = answer.value;
	return {
		verdict: {decision, reason, failure: null},
		check: {rule: 'controller', satisfied: decision === 'accept', message: `the pinned controller answered ${decision}: ${reason}`},
	};
}
