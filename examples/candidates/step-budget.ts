/**
 * A step policy that stops the loop at a fixed step index: the simplest `agent.step.policy` candidate.
 * Validate it with `hlab plugin validate --json examples/candidates/step-budget.ts`.
 */
import type {AgentStepPolicyInput, AgentStepPolicyOutput, RuntimePlugin} from 'hlab/sdk';

/** The first step index that is not dispatched: with 6, at most six model requests are made. */
const stopAtStep = 6;

export default {
	initialize() {
		return {
			protocol_version: 1,
			id: 'step-budget',
			capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}],
		};
	},
	invokeCapability({input}) {
		const step = input as AgentStepPolicyInput;
		const output: AgentStepPolicyOutput = step.step_index >= stopAtStep
			? {stop: true, reason: 'local_budget', content: `Stopped at the local step budget (step ${step.step_index}); the work may be incomplete.`}
			: {stop: false};
		return {output};
	},
} satisfies RuntimePlugin;
