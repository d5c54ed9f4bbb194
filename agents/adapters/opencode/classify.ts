import type {AgentClassification, AgentCollected, AgentOutputs} from '../../adapter-contract.js';
import {exitOf, stderrTail} from '../exit-note.js';
import {opencodeEvents} from './events.js';
import {retryingError} from './log-errors.js';

/** opencode's error names that mean the provider refused or failed the request. */
const providerErrors = new Set(['APIError', 'ProviderAuthError']);

/** From opencode's events (and its log, for the failures it retries silently), never its exit code alone. */
export function classify(outputs: AgentOutputs, _collected: AgentCollected): AgentClassification {
	const {steps, error} = opencodeEvents(outputs.stdout);
	if (outputs.endedBySupervisor) {
		// A provider that keeps failing is retried until the deadline: the log says so, stdout does not.
		const retrying = retryingError(outputs.home);
		if (retrying !== null) return {status: 'failed', reason: 'provider', message: `opencode was still retrying a failed request when the supervisor ended it: ${retrying}`};
		return {status: 'failed', reason: 'unfinished', message: 'opencode was ended by the supervisor before it finished'};
	}
	if (error !== null) {
		if (providerErrors.has(error.name)) return {status: 'failed', reason: 'provider', message: `opencode's request failed (${error.name}): ${error.message}`};
		if (error.name === 'MessageAbortedError') return {status: 'failed', reason: 'unfinished', message: `opencode aborted: ${error.message}`};
		return {status: 'failed', reason: 'crash', message: `opencode failed (${error.name}): ${error.message}`};
	}
	const last = steps.at(-1);
	if (last === undefined) return {status: 'failed', reason: outputs.exitCode === 0 ? 'crash' : 'init', message: `opencode made no step (${exitOf(outputs)}): ${stderrTail(outputs)}`};
	if (last.reason === null || last.reason === 'tool-calls') return {status: 'failed', reason: 'crash', message: `opencode ended in the middle of a step (${exitOf(outputs)}): ${stderrTail(outputs)}`};
	return {status: 'finished'};
}
