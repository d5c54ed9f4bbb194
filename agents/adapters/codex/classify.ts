import type {AgentClassification, AgentCollected, AgentOutputs} from '../../adapter-contract.js';
import {exitOf, stderrTail} from '../exit-note.js';
import {codexEvents} from './events.js';

/** From Codex's turn events, never its exit code alone: a turn fails when its model request failed for good. */
export function classify(outputs: AgentOutputs, _collected: AgentCollected): AgentClassification {
	if (outputs.endedBySupervisor) return {status: 'failed', reason: 'unfinished', message: 'Codex was ended by the supervisor before it finished'};
	const {sawThread, end} = codexEvents(outputs.stdout);
	if (!sawThread) return {status: 'failed', reason: 'init', message: `Codex did not start its thread (${exitOf(outputs)}): ${stderrTail(outputs)}`};
	if (end === null) return {status: 'failed', reason: 'crash', message: `Codex ended before its turn did (${exitOf(outputs)}): ${stderrTail(outputs)}`};
	if (end.kind === 'failed') return {status: 'failed', reason: 'provider', message: `Codex's turn failed: ${end.message}`};
	return {status: 'finished'};
}
