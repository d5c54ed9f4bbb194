import {capabilityIds, type CapabilityId, type CapabilityKind} from '../../sdk/plugin.js';

/** A capability the host offers: what `hlab plugin describe` reports. */
export interface CapabilityDescriptor {
	id: CapabilityId;
	kind: CapabilityKind;
	version: 1;
	input: string;
	output: string;
	description: string;
}

export const capabilityCatalog: CapabilityDescriptor[] = [
	{
		id: capabilityIds.stepPolicy,
		kind: 'decision',
		version: 1,
		input: 'AgentStepPolicyInput',
		output: 'AgentStepPolicyOutput',
		description: 'Runs after input admission and before each model request with a frozen transcript view. '
			+ 'Policies run by descending priority, then plugin id; the first stop ends the loop with a visible assistant record '
			+ 'stamped with the plugin\'s provenance (not a model turn). Not invoked once the step budget is exhausted.',
	},
	{
		id: capabilityIds.requestTransform,
		kind: 'transform',
		version: 1,
		input: 'AgentRequestTransformInput',
		output: 'AgentRequestTransformOutput',
		description: 'When the step continues, replaces the messages of the request about to be sent; transforms compose '
			+ 'in the same order as policies, each receiving the previous one\'s messages.',
	},
];
