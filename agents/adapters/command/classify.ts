import type {AgentClassification, AgentOutputs} from '../../adapter-contract.js';

/**
 * A command's only structured output is how it exited; the supervisor's own record (deadline, limits) and the
 * metering proxy's last exchange are judged before and after this, so an exit 0 after a provider error still fails.
 */
export function classifyCommand(outputs: AgentOutputs): AgentClassification {
	if (outputs.signal !== null) return {status: 'failed', reason: 'crash', message: `the command was killed by ${outputs.signal}`};
	if (outputs.exitCode !== 0) return {status: 'failed', reason: 'crash', message: `the command exited with status ${outputs.exitCode}`};
	return {status: 'finished'};
}
