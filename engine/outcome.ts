import {z} from 'zod';

/** Token and turn accounting of one task. Unknown is null, never 0. */
export const Usage = z.object({
	/** Model requests that were answered; a policy's stop record is not a turn. */
	turns: z.number().int().nonnegative(),
	input_tokens: z.number().int().nonnegative().nullable(),
	output_tokens: z.number().int().nonnegative().nullable(),
	cache_read_tokens: z.number().int().nonnegative().nullable(),
	cache_write_tokens: z.number().int().nonnegative().nullable(),
	/** Input + output, cache tokens included; null when any part is unknown. */
	total_tokens: z.number().int().nonnegative().nullable(),
	/** Null unless the provider reported a money cost. */
	cost_usd: z.number().nonnegative().nullable(),
	/**
	 * Set where the supervisor metered at the provider boundary: `provider` when every counted turn's tokens are the
	 * provider's own report, `estimated` when any is the metering proxy's tokenizer count (the provider reported none).
	 * Absent elsewhere and in older files.
	 */
	token_source: z.enum(['provider', 'estimated']).optional(),
});
export type Usage = z.infer<typeof Usage>;

/**
 * Why an execution did not finish its task, as the engine itself can tell: the classes callers branch on. The
 * supervisor's own reasons (admission, grading, export, ...) are the task's, in `supervisor/attempt/task-core/task-reasons.ts`.
 */
export const EngineFailureReason = z.enum(['init', 'auth', 'missing_tool', 'timeout', 'unfinished', 'crash', 'provider', 'tool', 'aborted']);
export type EngineFailureReason = z.infer<typeof EngineFailureReason>;

const Ms = z.number().nonnegative();

/**
 * Where a task's time went, as far as the provider is concerned. The supervisor measures wall time itself; the
 * working time is what a comparison of harnesses may use when the provider was slow for one side.
 */
export const ProviderTime = z.object({
	/** Requests sent, retries included. */
	requests: z.number().int().nonnegative(),
	/** Requests that repeated one that failed transiently (rate limit, server error, lost connection, one slow request). */
	retries: z.number().int().nonnegative(),
	/** Waiting for the attempt's shared limiter: a connection, the request or token rate, a provider's pause. */
	limiter_wait_ms: Ms,
	/** Lost to retries: each failed request that was retried, and the backoff after it. */
	retry_wait_ms: Ms,
	/** The engine's wall time for the task. */
	wall_ms: Ms,
	/** The wall time minus both waits. */
	working_ms: Ms,
});
export type ProviderTime = z.infer<typeof ProviderTime>;

/** What the engine says happened: how the loop ended, never whether the task is solved. */
export const ExecutionOutcome = z.object({
	status: z.enum(['done', 'policy_stop', 'unfinished', 'failed']),
	/** Set when status is `failed` (and `unfinished`, which is the `unfinished` reason). */
	reason: EngineFailureReason.nullable(),
	message: z.string().nullable(),
	steps: z.number().int().nonnegative(),
	usage: Usage,
	/** The final assistant text (a `done` summary or a policy's stop content). */
	final_text: z.string().nullable(),
	/** Provenance of a policy stop. */
	stopped_by: z.object({plugin: z.string(), reason: z.string()}).nullable(),
	/** Null when unknown (an outcome from a host build that does not report it). */
	time: ProviderTime.nullable().default(null),
	/**
	 * True when the task failed because the provider stayed unavailable (or its limits left no turn) until the
	 * deadline: a failure of the infrastructure, not of the harness. Null when unknown.
	 */
	infrastructure: z.boolean().nullable().default(null),
});
export type ExecutionOutcome = z.infer<typeof ExecutionOutcome>;
