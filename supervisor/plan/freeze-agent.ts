import {identifyAgent, readAgentSpec} from '../../agents/index.js';
import {InputError} from '../input-error.js';
import type {Plan} from './plan-schema.js';

/** A baseline agent that cannot be frozen: an unreadable spec, or a package not installed as it pins it. */
class AgentFreezeError extends InputError {
	readonly reason = 'agent';
}

/** The baseline agent as a plan freezes it: the spec's path and the identity of its verified installation (or script). */
export async function freezeAgent(specPath: string): Promise<NonNullable<Plan['agent']>> {
	const read = await readAgentSpec(specPath);
	if (!read.ok) throw new AgentFreezeError(read.message);
	const identified = await identifyAgent(read.loaded);
	if (!identified.ok) throw new AgentFreezeError(`--agent ${read.loaded.path}: ${identified.message}`);
	return {spec: read.loaded.path, identity: identified.identity};
}
