import {agentIdentity, readAgentSpec, verifyAgent} from '../../agents/index.js';
import {InputError} from '../input-error.js';
import type {Plan} from './plan-schema.js';

/** A baseline agent that cannot be frozen: an unreadable spec, or a package not installed as it pins it. */
class AgentFreezeError extends InputError {
	readonly reason = 'agent';
}

/** The baseline agent as a plan freezes it: the spec's path and the identity of its verified installation. */
export async function freezeAgent(specPath: string): Promise<NonNullable<Plan['agent']>> {
	const read = await readAgentSpec(specPath);
	if (!read.ok) throw new AgentFreezeError(read.message);
	const {spec, path} = read.loaded;
	const verified = await verifyAgent(spec);
	if (verified.ok) return {spec: path, identity: verified.identity};
	if (verified.reason === 'no_package') return {spec: path, identity: agentIdentity(spec, null)};
	throw new AgentFreezeError(`--agent ${path}: ${verified.message}`);
}
