import {z} from 'zod';

const Limit = z.number().int().positive().nullable().default(null);

/**
 * How hard the tasks of one attempt may drive one provider, together. The plan freezes it, so both sides run under
 * the same limits. Null is no limit.
 */
export const ProviderLimits = z.object({
	/** Requests in flight at once, across every task and thread of the attempt. */
	max_connections: Limit,
	/** Request starts per minute; they are spaced evenly, so no window of any length sees more than its share. */
	requests_per_minute: Limit,
	/** Tokens per minute, counted from the answers' usage: requests wait while more than a minute's worth is owed. */
	tokens_per_minute: Limit,
	/** How long one request may take before it is abandoned and retried; null leaves it the task's remaining time. */
	request_timeout_ms: Limit,
}).strict();
export type ProviderLimits = z.infer<typeof ProviderLimits>;
