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

/**
 * What to do after the `retry`-th failure of one request (0 for the first), with `remainingMs` left: wait the
 * provider's advice (a little more, never less) or the backoff, whichever is longer, or give up.
 */
export function planRetry(failure: RequestFailure, retry: number, remainingMs: number, random: () => number = Math.random): RetryPlan {
	if (!isRetryable(failure)) return {retry: false, why: 'final'};
	const advisedMs = failure.headers === null ? null : advisedWaitMs(failure.headers);
	const ownMs = backoffMs(retry, random);
	const waitMs = advisedMs === null ? ownMs : Math.max(ownMs, advisedMs + random() * Math.min(250, advisedMs / 10));
	if (waitMs + minimumAttemptMs > remainingMs) return {retry: false, why: 'no_time', waitMs, advisedMs};
	return {retry: true, waitMs, advisedMs};
}
