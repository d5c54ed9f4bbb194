import {z} from 'zod';

const Count = z.number().int().nonnegative();

/** The roles that make model calls in a search, each limited on its own. */
export const ModelRole = z.enum(['agent', 'judge', 'provider']);
export type ModelRole = z.infer<typeof ModelRole>;

/** An amount of spending in every unit a search meters; tokens are kept per unit and never added across units. */
export const Spend = z.object({
	rounds: Count,
	candidate_evaluations: Count,
	task_attempts: Count,
	model_calls: z.partialRecord(ModelRole, Count),
	tokens: z.record(z.string(), Count),
}).strict();
export type Spend = z.infer<typeof Spend>;

export function emptySpend(): Spend {
	return {rounds: 0, candidate_evaluations: 0, task_attempts: 0, model_calls: {}, tokens: {}};
}

/** A spend with the parts given and nothing else. */
export function spendOf(parts: Partial<Spend>): Spend {
	return {...emptySpend(), ...parts};
}

export function addSpend(a: Spend, b: Spend): Spend {
	const sum = (x: Record<string, number>, y: Record<string, number>): Record<string, number> => {
		const total = {...x};
		for (const [key, value] of Object.entries(y)) total[key] = (total[key] ?? 0) + value;
		return total;
	};
	return {
		rounds: a.rounds + b.rounds,
		candidate_evaluations: a.candidate_evaluations + b.candidate_evaluations,
		task_attempts: a.task_attempts + b.task_attempts,
		model_calls: sum(a.model_calls, b.model_calls),
		tokens: sum(a.tokens, b.tokens),
	};
}

/** Every amount of a spend by name, e.g. `model_calls.agent` or `tokens.tokens(agent)`. */
export function spendFields(spend: Spend): Map<string, number> {
	return new Map([
		['rounds', spend.rounds],
		['candidate_evaluations', spend.candidate_evaluations],
		['task_attempts', spend.task_attempts],
		...Object.entries(spend.model_calls).map(([role, calls]): [string, number] => [`model_calls.${role}`, calls]),
		...Object.entries(spend.tokens).map(([unit, tokens]): [string, number] => [`tokens.${unit}`, tokens]),
	]);
}

/** The fields where `spend` is above `bound` (a field `bound` lacks is 0), e.g. `tokens.tokens(agent) 120 > 100`. */
export function spendAbove(spend: Spend, bound: Spend): string[] {
	const limits = spendFields(bound);
	return [...spendFields(spend)].filter(([name, value]) => value > (limits.get(name) ?? 0)).map(([name, value]) => `${name} ${value} > ${limits.get(name) ?? 0}`);
}
