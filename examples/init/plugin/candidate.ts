/**
 * A single-file candidate (docs/candidates.md): a step policy that the engine asks before each model request.
 * It may import Node builtins and `hlab/sdk` only; `hlab plugin describe` lists the SDK and its capabilities.
 */
import type {AgentStepPolicyInput, AgentStepPolicyOutput, RuntimePlugin} from 'hlab/sdk';

/** The first step index that is not dispatched: with 8, at most eight model requests are made. */
const stepBudget = 8;

export default {
	initialize() {
		return {
			protocol_version: 1,
			id: 'my-candidate',
			capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}],
		};
	},
	invokeCapability({input}) {
		const step = input as AgentStepPolicyInput;
		// Change the harness here: this decision is what the experiment compares against the baseline.
		const output: AgentStepPolicyOutput = step.step_index >= stepBudget
			? {stop: true, reason: 'local_budget', content: `Stopped at the step budget (step ${step.step_index}).`}
			: {stop: false};
		return {output};
	},
} satisfies RuntimePlugin;
