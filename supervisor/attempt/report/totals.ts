import type {Totals, TaskResult} from './report-schema.js';

/** Reasons a task is recorded with before it was launched: it used nothing, so its part is a known 0, not unknown. */
const notLaunched: ReadonlySet<TaskResult['reason']> = new Set(['budget', 'runtime_space']);

/** Sums a side's usage; a sum is null as soon as one launched task's part is unknown, never a partial number. */
export function totalsOf(results: TaskResult[]): Totals {
	const sum = (pick: (result: TaskResult) => number | null): number | null => {
		let total = 0;
		for (const result of results) {
			if (notLaunched.has(result.reason)) continue;
			const value = pick(result);
			if (value === null) return null;
			total += value;
		}
		return total;
	};
	return {
		tasks: results.length,
		passed: results.filter(result => result.status === 'passed').length,
		failed: results.filter(result => result.status === 'failed').length,
		turns: sum(result => result.usage?.turns ?? null),
		total_tokens: sum(result => result.usage?.total_tokens ?? null),
		cost_usd: sum(result => result.usage?.cost_usd ?? null),
		wall_ms: sum(result => result.wall_ms),
	};
}
