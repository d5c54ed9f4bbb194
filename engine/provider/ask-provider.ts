import type OpenAI from 'openai';
import {setTimeout as sleep} from 'node:timers/promises';
import {EngineError} from '../engine-error.js';
import type {Deadline} from '../deadline.js';
import type {JsonlLog} from '../loop/jsonl-log.js';
import type {UsageMeter} from '../loop/usage-meter.js';
import {requestCompletion, type CompletionAnswer, type CompletionRequest, type RequestResult} from './model-request.js';
import type {Permit, ProviderLimiter} from './provider-limiter.js';
import type {ProviderTimeMeter} from './provider-time-meter.js';
import {minimumAttemptMs, planRetry} from './retry-policy.js';

/** What one task's requests go through: its client, the attempt's limiter (if any), its clocks and records. */
export interface ProviderContext {
	/** The task's client; the first call loads the client module. */
	client: () => Promise<OpenAI>;
	limiter: ProviderLimiter | null;
	deadline: Deadline;
	journal: JsonlLog;
	usage: UsageMeter;
	time: ProviderTimeMeter;
}

/**
 * One model request: admitted by the shared limiter, retried as the retry policy says, never past the deadline.
 * Usage is counted per request sent. A failure the policy does not retry is thrown as it is; a transient one that
 * outlasts the deadline, or any after the provider's service died, is a `provider` failure of the infrastructure.
 */
export async function askProvider(context: ProviderContext, request: CompletionRequest, step: number): Promise<CompletionAnswer> {
	const {journal, deadline} = context;
	// Loaded before any clock starts, so the module's load is not counted as the provider's time.
	const client = await context.client();
	let lost: Lost | null = null;
	for (let retry = 0; ; retry += 1) {
		const permit = await admit(context, step, retry, lost);
		const sentAt = performance.now();
		journal.append('request', {step_index: step, attempt: retry, body: request});
		context.time.sent();
		const result = await requestCompletion(client, request, deadline, context.limiter?.limits.request_timeout_ms ?? null);
		permit?.release(tokensOf(result, request));
		if (result.ok) {
			context.usage.addTurn(result.answer.usage ?? null);
			journal.append('response', {step_index: step, attempt: retry, status: result.status, request_id: result.requestId, body: result.answer});
			return result.answer;
		}
		const {failure} = result;
		if (failure.usageUnknown) context.usage.addUnreported();
		const plan = deadline.reason ? null : planRetry(failure, retry, deadline.remainingMs());
		const died = context.limiter?.providerDiedAt() ?? null;
		journal.append('request_error', {
			step_index: step, attempt: retry, status: result.status, reason: failure.error.reason, message: failure.error.message,
			retry_in_ms: plan?.retry && died === null ? Math.round(plan.waitMs) : null,
		});
		// A request cut by the deadline ends the task as the deadline says (a hanging endpoint is a timeout).
		deadline.throwIfEnded();
		// A refused connection after the service died is the death, not a blip: no retry waits for a dead process.
		if (died !== null && failure.kind !== 'status') throw serviceDied(died, failure.error.message);
		if (plan === null || !plan.retry) {
			if (plan?.why === 'no_time') {
				throw new EngineError('provider', `the provider stayed unavailable until the deadline: ${failure.error.message} (the next retry, in ${Math.ceil(plan.waitMs)} ms, would pass it)`, {infrastructure: true});
			}
			throw failure.error;
		}
		lost = {sentAt, untilMs: performance.now() + plan.waitMs};
		await waitToRetry(context, plan.waitMs, plan.advisedMs !== null);
	}
}

/** A failed request being retried: when it was sent, and when the wait the retry policy chose ends. */
interface Lost {
	sentAt: number;
	untilMs: number;
}

/**
 * The wait before a retry. The provider's advice holds every task of the attempt (a shared pause), and the task
 * queues in the limiter at once, so tasks refused earlier are served earlier when the pause ends. The backoff of a
 * failure without advice is this task's own; a service that dies meanwhile ends it at once.
 */
async function waitToRetry(context: ProviderContext, waitMs: number, advised: boolean): Promise<void> {
	const {limiter, deadline} = context;
	if (limiter !== null && advised) {
		limiter.pauseFor(waitMs);
		return;
	}
	if (limiter !== null) await limiter.rest(waitMs, deadline.signal);
	else await sleep(waitMs, undefined, {signal: deadline.signal}).catch(() => undefined);
	deadline.throwIfEnded();
}

function serviceDied(diedAtMs: number, message: string): EngineError {
	return new EngineError('provider', `the provider's service died at ${new Date(diedAtMs).toISOString()}: ${message}`, {infrastructure: true});
}

/**
 * Waits for the limiter; a wait that cannot end before the deadline fails the task as an infrastructure failure.
 * After a failure, the wait up to the end of the retry's chosen wait is time lost to the retry, the rest the limiter's.
 */
async function admit(context: ProviderContext, step: number, retry: number, lost: Lost | null): Promise<Permit | null> {
	const {limiter, deadline} = context;
	const startedAt = performance.now();
	const admission = limiter === null ? null : await limiter.acquire({remainingMs: () => deadline.remainingMs() - minimumAttemptMs, signal: deadline.signal});
	const endedAt = performance.now();
	const retryPartMs = lost === null ? 0 : Math.max(0, Math.min(endedAt, lost.untilMs) - startedAt);
	if (lost !== null) context.time.retried(startedAt - lost.sentAt + retryPartMs);
	if (admission === null) return null;
	const waitedMs = endedAt - startedAt - retryPartMs;
	context.time.waitedForLimiter(waitedMs);
	if (waitedMs >= 1) context.journal.append('limiter_wait', {step_index: step, attempt: retry, waited_ms: Math.round(waitedMs), admitted: admission.ok});
	if (admission.ok) return admission.permit;
	if (deadline.reason?.reason === 'aborted') throw deadline.reason;
	const died = limiter!.providerDiedAt();
	if (died !== null) throw serviceDied(died, 'no request is sent to it');
	throw new EngineError('provider', `the provider's limits left no turn before the deadline: ${admission.problem}`, {infrastructure: true});
}

/** The tokens a request used, for the token rate: as reported, else estimated from its size (about 4 bytes a token). */
function tokensOf(result: RequestResult, request: CompletionRequest): number {
	if (!result.ok) return 0;
	const usage = result.answer.usage;
	if (usage?.prompt_tokens != null && usage.completion_tokens != null) return usage.prompt_tokens + usage.completion_tokens;
	return Math.ceil(JSON.stringify(request).length / 4);
}
