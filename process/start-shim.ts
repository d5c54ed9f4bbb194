import {shellQuote} from './shell-quote.js';

/** One step a tree's shim takes before the command: shell words, and what failed if they fail. */
export interface ShimStep {
	command: string;
	failure: string;
}

/**
 * The command behind one `/bin/sh` that takes each step and only then execs it: the command keeps the shim's pid, and
 * every process it forks inherits what the steps set. A step that fails ends the shim with status 125 and its reason on
 * stderr, and the command never runs. No steps: the command as it is, with no shell between.
 */
export function shimArgv(steps: ShimStep[], argv: string[]): string[] {
	if (steps.length === 0) return argv;
	const script = steps.map(step => `${step.command} || { echo ${shellQuote(`hlab: ${step.failure}`)} >&2; exit 125; }; `).join('');
	return ['/bin/sh', '-c', `${script}exec "$@"`, 'hlab-shim', ...argv];
}
