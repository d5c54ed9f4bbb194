import {resolve} from 'node:path';
import type {AgentIdentity} from '../../../agents/index.js';
import {admitAgent, type AdmittedAgent} from '../../agent/index.js';
import type {TaskFailure} from '../task-core/failed-result.js';
import type {AttemptContext} from './attempt-context.js';

export interface AttemptAgent {
	agent: AdmittedAgent | null;
	/** A spec that cannot be read, or an installed agent whose files changed, refuses the attempt (`admission`). */
	failure: TaskFailure | null;
}

/**
 * Reads the `--agent` spec (or, for the baseline side of a plan frozen with one, the plan's) and verifies its installed
 * package file by file; the baseline's agent must still have the identity the plan froze. None without an agent.
 */
export async function openAttemptAgent(attempt: AttemptContext): Promise<AttemptAgent> {
	const frozen = frozenBaseline(attempt);
	const spec = attempt.options.agentSpec ?? frozen?.spec ?? null;
	if (spec === null) return {agent: null, failure: null};
	const admitted = await admitAgent(resolve(attempt.options.cwd ?? process.cwd(), spec));
	if (!admitted.ok) {
		attempt.log.info({agent: admitted.message}, 'agent refused');
		return {agent: null, failure: {reason: 'admission', message: admitted.message}};
	}
	const changed = frozen === null ? null : identityChange(frozen.identity, admitted.agent.identity);
	if (changed !== null) return {agent: null, failure: {reason: 'admission', message: `the baseline agent ${spec} is not the one the plan froze: ${changed}`}};
	attempt.log.info({agent: admitted.agent.identity}, 'agent admitted');
	return {agent: admitted.agent, failure: null};
}

/** Whether the attempt runs an agent (its `--agent`, or the plan's for its baseline side), before the spec is read. */
export function runsAgent(attempt: AttemptContext): boolean {
	return (attempt.options.agentSpec ?? null) !== null || frozenBaseline(attempt) !== null;
}

/** The plan's frozen agent when this attempt is its baseline side and names no other candidate. */
function frozenBaseline(attempt: AttemptContext): NonNullable<AttemptContext['plan']['agent']> | null {
	const {options, plan} = attempt;
	const other = options.candidatePath !== null || (options.candidateHost ?? null) !== null || (options.candidateCartridge ?? null) !== null;
	if (plan.agent === undefined || attempt.side !== 'baseline' || other) return null;
	return plan.agent;
}

/** The first field of an agent's identity that differs from the frozen one, in words; null when they are equal. */
function identityChange(frozen: AgentIdentity, now: AgentIdentity): string | null {
	for (const field of Object.keys(frozen) as Array<keyof AgentIdentity>) {
		const [was, is] = [JSON.stringify(frozen[field]), JSON.stringify(now[field])];
		if (was !== is) return `${field} was ${was} when frozen, is ${is} now`;
	}
	return null;
}
