import {dirname} from 'node:path';

/** The agent's whole environment, built from nothing; the supervisor's own is never extended. */
export interface AgentEnvironmentInput {
	/** What the adapter's launch sets (endpoint, placeholder key, model, the adapter's switches). */
	launch: Record<string, string>;
	home: string;
	tmp: string;
	/** The spec's allow-list: the only names taken from the user's environment. */
	allowed: string[];
	/** The environment the allow-list and the markers are read from. */
	from?: NodeJS.ProcessEnv;
}

/**
 * Only the launch environment, PATH (this Node first, so a `#!/usr/bin/env node` bin runs on it), the task's own
 * HOME and TMPDIR, the allow-listed variables, and the supervisor's markers (`HLAB_*=1`, which carry no value and by
 * which the leak audit finds the tree): nothing else of the user's environment reaches the agent.
 */
export function agentEnvironment(input: AgentEnvironmentInput): Record<string, string> {
	const from = input.from ?? process.env;
	const env: Record<string, string> = {};
	for (const [name, value] of Object.entries(from)) {
		if (name.startsWith('HLAB_') && value === '1') env[name] = value;
	}
	for (const name of input.allowed) {
		const value = from[name];
		if (value !== undefined) env[name] = value;
	}
	Object.assign(env, input.launch);
	env.PATH = [dirname(process.execPath), from.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(':');
	env.HOME = input.home;
	env.TMPDIR = input.tmp;
	return env;
}
