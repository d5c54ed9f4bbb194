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

/** The provider time of several tasks together (a report's totals); unknown when any task's is unknown. */
export function totalProviderTime(times: (ProviderTime | null)[]): ProviderTime | null {
	if (times.some(time => time === null)) return null;
	const total: ProviderTime = {requests: 0, retries: 0, limiter_wait_ms: 0, retry_wait_ms: 0, wall_ms: 0, working_ms: 0};
	for (const time of times as ProviderTime[]) {
		for (const field of Object.keys(total) as (keyof ProviderTime)[]) total[field] += time[field];
	}
	return {...total, limiter_wait_ms: round(total.limiter_wait_ms), retry_wait_ms: round(total.retry_wait_ms), wall_ms: round(total.wall_ms), working_ms: round(total.working_ms)};
}
