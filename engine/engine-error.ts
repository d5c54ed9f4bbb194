import {EngineFailureReason} from './outcome.js';

/** An error the engine classifies: callers branch on `reason`. */
export class EngineError extends Error {
	/** True when the infrastructure failed (the provider stayed unavailable until the deadline), not the harness. */
	readonly infrastructure: boolean;

	constructor(readonly reason: EngineFailureReason, message: string, options?: {cause?: unknown; infrastructure?: boolean}) {
		super(message, options);
		this.name = 'EngineError';
		this.infrastructure = options?.infrastructure ?? false;
	}
}

/**
 * The reason and message of anything thrown: the class an engine error carries (it survives a structured clone
 * across threads as a plain `reason` field), otherwise `crash`.
 */
export function failureOf(error: unknown): {reason: EngineFailureReason; message: string} {
	const {reason, message} = (error ?? {}) as {reason?: unknown; message?: unknown};
	const known = EngineFailureReason.safeParse(reason);
	return {reason: known.success ? known.data : 'crash', message: typeof message === 'string' ? message : String(error)};
}
