import type {AgentClassification, AgentCollected, AgentOutputs} from '../../adapter-contract.js';
import {exitOf, stderrTail} from '../exit-note.js';
import {apiErrorPrefix, qwenEvents} from './events.js';

/** Qwen Code aborts a run past `--max-wall-time` or `--max-tool-calls` with this exit code, and writes no result. */
const budgetExitCode = 55;

/** From Qwen Code's `result` event, never its exit code alone. */
export function classify(outputs: AgentOutputs, _collected: AgentCollected): AgentClassification {
	if (outputs.endedBySupervisor) return {status: 'failed', reason: 'unfinished', message: 'Qwen Code was ended by the supervisor before it finished'};
	const {sawInit, result} = qwenEvents(outputs.stdout);
	if (!sawInit) return {status: 'failed', reason: 'init', message: `Qwen Code did not start its session (${exitOf(outputs)}): ${stderrTail(outputs)}`};
	if (result === null) {
		if (outputs.exitCode === budgetExitCode) return {status: 'failed', reason: 'unfinished', message: `Qwen Code stopped at its own budget: ${stderrTail(outputs)}`};
		return {status: 'failed', reason: 'crash', message: `Qwen Code ended without its result (${exitOf(outputs)}): ${stderrTail(outputs)}`};
	}
	if (!result.isError && result.subtype === 'success') return {status: 'finished'};
	const message = result.errorMessage ?? result.text ?? result.subtype;
	if (message.startsWith(apiErrorPrefix)) return {status: 'failed', reason: 'provider', message: `Qwen Code's request failed: ${message}`};
	if (/turn/i.test(result.subtype) || /max(imum)? (session )?turns/i.test(message)) return {status: 'failed', reason: 'unfinished', message: `Qwen Code stopped at its turn budget: ${message}`};
	// Its always-on guard against a model repeating one call: the agent gave up, it did not break.
	if (message.startsWith('Loop detection halted')) return {status: 'failed', reason: 'unfinished', message: `Qwen Code stopped itself: ${message}`};
	return {status: 'failed', reason: 'crash', message: `Qwen Code ended with an error (${result.subtype}): ${message}`};
}
