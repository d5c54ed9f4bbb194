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
});
export type Usage = z.infer<typeof Usage>;

/** Why an execution did not finish its task; the classes callers branch on. */
export const FailureReason = z.enum([
	'init', 'auth', 'missing_tool', 'timeout', 'unfinished', 'crash', 'output_limit',
	'admission', 'grader', 'provider', 'tool', 'aborted', 'export', 'controller', 'host',
]);
export type FailureReason = z.infer<typeof FailureReason>;

/** What the engine says happened: how the loop ended, never whether the task is solved. */
export const ExecutionOutcome = z.object({
	status: z.enum(['done', 'policy_stop', 'unfinished', 'failed']),
	/** Set when status is `failed` (and `unfinished`, which is the `unfinished` reason). */
	reason: FailureReason.nullable(),
	message: z.string().nullable(),
	steps: z.number().int().nonnegative(),
	usage: Usage,
	/** The final assistant text (a `done` summary or a policy's stop content). */
	final_text: z.string().nullable(),
	/** Provenance of a policy stop. */
	stopped_by: z.object({plugin: z.string(), reason: z.string()}).nullable(),
});
export type ExecutionOutcome = z.infer<typeof ExecutionOutcome>;
