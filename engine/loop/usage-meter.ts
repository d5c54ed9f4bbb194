import {z} from 'zod';
import type {Usage} from '../outcome.js';

const Count = z.number().int().nonnegative();

/** The usage fields this engine reads from a chat-completions answer; all optional, as providers differ. */
export const ReportedUsage = z.object({
	prompt_tokens: Count.optional(),
	completion_tokens: Count.optional(),
	prompt_tokens_details: z.object({
		cached_tokens: Count.nullish(),
		cache_write_tokens: Count.nullish(),
	}).passthrough().nullish(),
	cache_creation_input_tokens: Count.nullish(),
	cost: z.number().nonnegative().nullish(),
}).passthrough();
export type ReportedUsage = z.infer<typeof ReportedUsage>;

type Field = 'input_tokens' | 'output_tokens' | 'cache_read_tokens' | 'cache_write_tokens' | 'cost_usd';

/**
 * Sums usage over turns. A field is known only while every request reported it: one request without it
 * (or one lost in flight) makes the total unknown (null), never a silent 0.
 * Input tokens follow the chat-completions convention: they include cache-read and cache-write tokens.
 */
export class UsageMeter {
	private turns = 0;
	private readonly sums: Record<Field, number | null> = {input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0};
	private costSeen = false;

	/** A request answered by the model. */
	addTurn(reported: ReportedUsage | null): void {
		this.turns += 1;
		const details = reported?.prompt_tokens_details ?? null;
		this.add('input_tokens', reported?.prompt_tokens);
		this.add('output_tokens', reported?.completion_tokens);
		this.add('cache_read_tokens', details?.cached_tokens);
		this.add('cache_write_tokens', details?.cache_write_tokens ?? reported?.cache_creation_input_tokens);
		this.add('cost_usd', reported?.cost);
		if (reported?.cost != null) this.costSeen = true;
	}

	/** A request that may have been processed but whose usage nobody reported (lost in flight). */
	addUnreported(): void {
		for (const field of Object.keys(this.sums) as Field[]) this.sums[field] = null;
	}

	snapshot(): Usage {
		const {input_tokens, output_tokens} = this.sums;
		return {
			turns: this.turns,
			input_tokens,
			output_tokens,
			cache_read_tokens: this.sums.cache_read_tokens,
			cache_write_tokens: this.sums.cache_write_tokens,
			total_tokens: input_tokens === null || output_tokens === null ? null : input_tokens + output_tokens,
			// Money is unknown unless the provider reported it for every turn.
			cost_usd: this.costSeen ? this.sums.cost_usd : null,
		};
	}

	private add(field: Field, value: number | null | undefined): void {
		const sum = this.sums[field];
		this.sums[field] = sum === null || value == null ? null : sum + value;
	}
}
