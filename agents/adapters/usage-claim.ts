import type {Usage} from '../../engine/outcome.js';

/** One model turn's token counts as an agent reports them; null where it reports none. `input` counts the whole prompt, cached tokens included (the OpenAI convention). */
export interface TurnTokens {
	input: number | null;
	output: number | null;
	cacheRead: number | null;
	cacheWrite: number | null;
	costUsd: number | null;
}

/** The agent's claim summed over its turns: a count any turn left unknown is unknown in the sum (null, never 0). */
export function usageClaim(turns: TurnTokens[]): Usage | null {
	if (turns.length === 0) return null;
	const sum = (pick: (turn: TurnTokens) => number | null) => turns.reduce<number | null>((total, turn) => (total === null || pick(turn) === null ? null : total + pick(turn)!), 0);
	const input = sum(turn => turn.input);
	const output = sum(turn => turn.output);
	const cacheRead = sum(turn => turn.cacheRead);
	const cacheWrite = sum(turn => turn.cacheWrite);
	const total = input === null || output === null ? null : input + output;
	const cost = sum(turn => turn.costUsd);
	return {turns: turns.length, input_tokens: input, output_tokens: output, cache_read_tokens: cacheRead, cache_write_tokens: cacheWrite, total_tokens: total, cost_usd: cost};
}

/** A count if the value is one (a non-negative integer), else null. */
export function count(value: unknown): number | null {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}
