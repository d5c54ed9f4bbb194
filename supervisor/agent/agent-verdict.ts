import type {AgentClassification} from '../../agents/index.js';
import type {ProcessRecord} from '../../process/index.js';
import type {HostFailureReason, LastExchange} from '../host/index.js';

export type AgentFailure = {reason: HostFailureReason; message: string};

/**
 * The supervisor's verdict on one agent run: its own process record first (deadline, limits, interruption, a
 * launch that never started), then the adapter's reading of the agent's output, then the metering proxy's last
 * exchange: an agent whose last model request failed did not finish, whatever it exited with.
 */
export function judgeAgent(record: ProcessRecord, classification: AgentClassification | null, last: LastExchange | null): AgentFailure | null {
	const supervised = supervisorFailure(record);
	if (supervised !== null) return supervised;
	if (classification === null) return {reason: 'crash', message: 'the adapter could not read the agent\'s output'};
	if (classification.status === 'failed') return {reason: classification.reason, message: classification.message};
	if (last !== null && last.status >= 400) {
		const where = last.refused ? 'the metering proxy refused it' : `the provider answered ${last.status}`;
		return {reason: 'provider', message: `the agent's last model request failed (${where}${last.message === null ? '' : `: ${oneLine(last.message)}`}), yet it exited ${record.exit_code ?? record.signal}`};
	}
	return null;
}

function supervisorFailure(record: ProcessRecord): AgentFailure | null {
	switch (record.failure) {
		case 'timeout': return {reason: 'timeout', message: `the agent passed its deadline (${record.failure_message}) and its process tree was ended`};
		case 'stdout_limit':
		case 'stderr_limit': return {reason: 'output_limit', message: record.failure_message ?? record.failure};
		case 'aborted': return {reason: 'aborted', message: 'the attempt was interrupted while the agent ran'};
		case 'spawn': return {reason: 'init', message: record.failure_message ?? 'the agent could not be started'};
		// Its tree was ended with the spawner: whatever it wrote is not an answer the supervisor saw end.
		case 'spawner': return {reason: 'crash', message: record.failure_message ?? 'the spawner that ran the agent ended'};
		default: return null;
	}
}

function oneLine(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
