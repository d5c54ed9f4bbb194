import {FailureReason} from './outcome.js';

/** An error the engine classifies: callers branch on `reason`. */
export class EngineError extends Error {
	constructor(readonly reason: FailureReason, message: string, options?: {cause?: unknown}) {
		super(message, options);
		this.name = 'EngineError';
	}
}

/**
 * The reason and message of anything thrown: the class an engine error carries (it survives a structured clone
 * across threads as a plain `reason` field), otherwise `crash`.
 */
export function failureOf(error: unknown): {reason: FailureReason; message: string} {
	const {reason, message} = (error ?? {}) as {reason?: unknown; message?: unknown};
	const known = FailureReason.safeParse(reason);
	return {reason: known.success ? known.data : 'crash', message: typeof message === 'string' ? message : String(error)};
}
