import {EngineError} from './engine-error.js';

/**
 * The soft deadline: the execution's time limit and cancellation as one signal, kept by the engine itself (the run
 * loop stops cooperatively). It aborts at the deadline (reason `timeout`) or when the caller's signal aborts (reason
 * `aborted`). Tools and plugins receive it and the time left. The hard deadline is outside: `process/grace.ts`.
 */
export class Deadline {
	readonly signal: AbortSignal;
	private readonly startedAt = performance.now();
	private readonly controller = new AbortController();
	private readonly timer: NodeJS.Timeout;
	private ended: EngineError | null = null;
	private readonly onParentAbort = (): void => this.end(new EngineError('aborted', 'the execution was cancelled'));

	constructor(readonly deadlineMs: number, private readonly parent?: AbortSignal) {
		this.signal = this.controller.signal;
		this.timer = setTimeout(() => this.end(new EngineError('timeout', `the deadline of ${deadlineMs} ms was reached`)), deadlineMs);
		if (parent?.aborted) this.onParentAbort();
		else parent?.addEventListener('abort', this.onParentAbort, {once: true});
	}

	elapsedMs(): number {
		return performance.now() - this.startedAt;
	}

	remainingMs(): number {
		return Math.max(0, this.deadlineMs - this.elapsedMs());
	}

	/** The error that ended the execution, or null while it runs. */
	get reason(): EngineError | null {
		return this.ended;
	}

	throwIfEnded(): void {
		if (this.ended) throw this.ended;
	}

	/** Settles like `promise`, or rejects with the deadline's error as soon as the deadline or cancellation comes. */
	race<T>(promise: Promise<T>): Promise<T> {
		if (this.ended) {
			promise.catch(() => undefined);
			return Promise.reject(this.ended);
		}
		return new Promise<T>((resolve, reject) => {
			const onAbort = (): void => reject(this.ended);
			this.signal.addEventListener('abort', onAbort, {once: true});
			promise.then(
				value => {
					this.signal.removeEventListener('abort', onAbort);
					resolve(value);
				},
				error => {
					this.signal.removeEventListener('abort', onAbort);
					reject(error);
				},
			);
		});
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.parent?.removeEventListener('abort', this.onParentAbort);
	}

	private end(error: EngineError): void {
		if (this.ended) return;
		this.ended = error;
		this.controller.abort(error);
	}
}
