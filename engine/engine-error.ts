import type {FailureReason} from './outcome.js';

/** An error the engine classifies: callers branch on `reason`. */
export class EngineError extends Error {
	constructor(readonly reason: FailureReason, message: string, options?: {cause?: unknown}) {
		super(message, options);
		this.name = 'EngineError';
	}
}
