import type {RequestFailure} from './model-request.js';
import {advisedWaitMs} from './rate-limit-headers.js';

/** Statuses below 500 that say "try again": request timeout, conflict, rate limit. 400/401/403/404 fail at once. */
const retriedStatuses = new Set([408, 409, 429]);

/** Exponential backoff: the ceiling doubles from `baseMs` per retry of one request, up to `capMs`. */
export const backoff = {baseMs: 500, capMs: 20_000};

/** A retry that would leave the request itself less than this before the deadline is not worth sending. */
export const minimumAttemptMs = 100;

/** Whether a failure may go away on its own: a rate limit, a server error, a lost connection, one slow request. */
export function isRetryable(failure: RequestFailure): boolean {
	if (failure.kind === 'connection' || failure.kind === 'request_timeout') return true;
	if (failure.kind !== 'status' || failure.status === null) return false;
	return retriedStatuses.has(failure.status) || failure.status >= 500;
}

/** Equal jitter: half the ceiling, plus up to half at random, so tasks that failed together do not retry together. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
	const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** retry);
	return ceiling / 2 + (random() * ceiling) / 2;
}

export type RetryPlan =
	| {retry: true; waitMs: number; advisedMs: number | null}
	/** `final`: the failure does not go away by waiting; `no_time`: it might, but not before the deadline. */
	| {retry: false; why: 'final'} | {retry: false; why: 'no_time'; waitMs: number; advisedMs: number | null};

/** The jitter on a provider's advice: a tenth of it, at most a quarter second, so tasks told the same wait spread a little. */
function advisedJitterMs(advisedMs: number, random: () => number = Math.random): number {
	return random() * Math.min(250, advisedMs / 10);
}

/**
 * What to do after the `retry`-th failure of one request (0 for the first), with `remainingMs` left: wait what the
 * provider advised (plus a little jitter), or, only when it advised nothing, the exponential backoff; or give up.
 * Advice is the wait, not a floor under the backoff: a task refused many times in a storm must not drift to waits
 * far past what the provider asked for, while the tasks that were luckier take its turns.
 */
export function planRetry(failure: RequestFailure, retry: number, remainingMs: number, random: () => number = Math.random): RetryPlan {
	if (!isRetryable(failure)) return {retry: false, why: 'final'};
	const advisedMs = failure.headers === null ? null : advisedWaitMs(failure.headers);
	const waitMs = advisedMs === null ? backoffMs(retry, random) : advisedMs + advisedJitterMs(advisedMs, random);
	if (waitMs + minimumAttemptMs > remainingMs) return {retry: false, why: 'no_time', waitMs, advisedMs};
	return {retry: true, waitMs, advisedMs};
}
