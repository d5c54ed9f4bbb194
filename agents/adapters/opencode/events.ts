import {jsonLines} from '../json-lines.js';

/*
 * `opencode run --format json` stdout: per model request a `step_start`, its parts (`text`, `tool_use` with the
 * tool's input and final state, `reasoning`), and a `step_finish` with the step's tokens and finish reason; a
 * request that failed for good is one `error` event ({name, data: {message, statusCode, isRetryable}}). The prompt
 * is not echoed. Retryable failures (HTTP 5xx, 429, server_error bodies) are retried without end and print nothing.
 */

export interface OpencodeCall {
	id: string;
	tool: string;
	input: unknown;
	/** The tool's output, or its error. */
	output: string;
}

export interface OpencodeStep {
	text: string;
	calls: OpencodeCall[];
	/** Null while the step is open (no `step_finish`). */
	reason: string | null;
	tokens: Record<string, unknown> | null;
}

export interface OpencodeEvents {
	steps: OpencodeStep[];
	error: {name: string; message: string} | null;
}

export function opencodeEvents(stdout: string): OpencodeEvents {
	const events: OpencodeEvents = {steps: [], error: null};
	let step: OpencodeStep | null = null;
	for (const event of jsonLines(stdout)) {
		const part = isRecord(event.part) ? event.part : {};
		if (event.type === 'step_start') events.steps.push(step = {text: '', calls: [], reason: null, tokens: null});
		else if (event.type === 'text' && step !== null) step.text += typeof part.text === 'string' ? part.text : '';
		else if (event.type === 'tool_use' && step !== null) step.calls.push(callOf(part));
		else if (event.type === 'step_finish' && step !== null) {
			step.reason = typeof part.reason === 'string' ? part.reason : '';
			step.tokens = isRecord(part.tokens) ? part.tokens : null;
		} else if (event.type === 'error') events.error = errorOf(event.error);
	}
	return events;
}

function callOf(part: Record<string, unknown>): OpencodeCall {
	const state = isRecord(part.state) ? part.state : {};
	const output = typeof state.output === 'string' ? state.output : typeof state.error === 'string' ? state.error : '';
	return {id: String(part.callID ?? ''), tool: String(part.tool ?? ''), input: state.input ?? {}, output};
}

function errorOf(error: unknown): {name: string; message: string} {
	if (!isRecord(error)) return {name: 'UnknownError', message: String(error)};
	const data = isRecord(error.data) ? error.data : {};
	return {name: String(error.name ?? 'UnknownError'), message: String(data.message ?? error.message ?? 'no message')};
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
