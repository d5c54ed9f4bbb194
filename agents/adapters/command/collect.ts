import type {AgentCollected, AgentOutputs} from '../../adapter-contract.js';

/**
 * A command has no trajectory format of its own: what it wrote on stdout is its answer (graders of a question read
 * it), and the only message of its trajectory. It reports no usage; the metering proxy's count is the usage.
 */
export function collectCommand(outputs: AgentOutputs): AgentCollected {
	const text = outputs.stdout.trim();
	const finalText = text === '' ? null : text;
	return {messages: finalText === null ? [] : [{role: 'assistant', content: finalText}], usageClaim: null, finalText};
}
