import type {AgentClassification, AgentCollected, AgentOutputs} from '../../adapter-contract.js';
import {exitOf, stderrTail} from '../exit-note.js';
import {piEvents} from './events.js';

/**
 * From pi's events, never its exit code: pi exits 0 after a request failed for good, and says so only in its
 * last assistant message (`stopReason: "error"`) and its `auto_retry_end`.
 */
export function classify(outputs: AgentOutputs, _collected: AgentCollected): AgentClassification {
	const events = piEvents(outputs.stdout);
	if (outputs.endedBySupervisor) return {status: 'failed', reason: 'unfinished', message: 'pi was ended by the supervisor before it finished'};
	if (!events.sawSession) return {status: 'failed', reason: 'init', message: `pi did not start its session (${exitOf(outputs)}): ${stderrTail(outputs)}`};
	const last = events.messages.filter(message => message.role === 'assistant').at(-1);
	if (last?.stopReason === 'error') return {status: 'failed', reason: 'provider', message: `pi's last request failed: ${events.retriesExhausted ?? last.errorMessage ?? 'no message'}`};
	if (last?.stopReason === 'aborted') return {status: 'failed', reason: 'unfinished', message: `pi aborted its last turn: ${last.errorMessage ?? 'no message'}`};
	if (events.agentEnds === 0 || last === undefined) return {status: 'failed', reason: 'crash', message: `pi ended before its loop did (${exitOf(outputs)}): ${stderrTail(outputs)}`};
	return {status: 'finished'};
}
