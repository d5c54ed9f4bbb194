import {resolve} from 'node:path';
import {admitAgent, type AdmittedAgent} from '../../agent/index.js';
import type {TaskFailure} from '../task-core/failed-result.js';
import type {AttemptContext} from './attempt-context.js';

export interface AttemptAgent {
	agent: AdmittedAgent | null;
	/** A spec that cannot be read, or an installed agent whose files changed, refuses the attempt (`admission`). */
	failure: TaskFailure | null;
}

/** Reads the `--agent` spec and verifies its installed package file by file; none for an attempt without one. */
export async function openAttemptAgent(attempt: AttemptContext): Promise<AttemptAgent> {
	const spec = attempt.options.agentSpec ?? null;
	if (spec === null) return {agent: null, failure: null};
	const admitted = await admitAgent(resolve(attempt.options.cwd ?? process.cwd(), spec));
	if (!admitted.ok) {
		attempt.log.info({agent: admitted.message}, 'agent refused');
		return {agent: null, failure: {reason: 'admission', message: admitted.message}};
	}
	attempt.log.info({agent: admitted.agent.identity}, 'agent admitted');
	// The tasks' bubblewrap view for an agent (its store and $HOME readable, loopback only) is not built: refuse rather than run it uncontained.
	if (attempt.plan.sandbox !== undefined) return {agent: null, failure: {reason: 'init', message: 'a sandboxed plan cannot run a third-party agent yet: --sandbox for agents is not built'}};
	return {agent: admitted.agent, failure: null};
}
