import type {AgentOutputs} from '../adapter-contract.js';

/** How the agent's process ended, for a failure's message: `exit 1` or `signal SIGKILL`. */
export function exitOf(outputs: AgentOutputs): string {
	return outputs.signal === null ? `exit ${outputs.exitCode}` : `signal ${outputs.signal}`;
}

/** The last line the agent wrote to stderr, cut short: what a failure's message quotes. */
export function stderrTail(outputs: AgentOutputs): string {
	const line = outputs.stderr.trim().split('\n').at(-1) ?? '';
	return line === '' ? 'nothing on stderr' : line.slice(0, 300);
}
