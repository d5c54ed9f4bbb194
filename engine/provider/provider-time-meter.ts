import type {ProviderTime} from '../outcome.js';

/** Counts one task's provider requests and the time it spent waiting on the provider rather than working. */
export class ProviderTimeMeter {
	private requests = 0;
	private retries = 0;
	private limiterWaitMs = 0;
	private retryWaitMs = 0;

	sent(): void {
		this.requests += 1;
	}

	waitedForLimiter(ms: number): void {
		this.limiterWaitMs += ms;
	}

	/** A failed request that will be sent again, and the time from its start to the end of the backoff. */
	retried(lostMs: number): void {
		this.retries += 1;
		this.retryWaitMs += lostMs;
	}

	snapshot(wallMs: number): ProviderTime {
		const waits = this.limiterWaitMs + this.retryWaitMs;
		return {
			requests: this.requests,
			retries: this.retries,
			limiter_wait_ms: round(this.limiterWaitMs),
			retry_wait_ms: round(this.retryWaitMs),
			wall_ms: round(wallMs),
			working_ms: round(Math.max(0, wallMs - waits)),
		};
	}
}

function round(ms: number): number {
	return Math.round(ms * 10) / 10;
}
