import {normalQuantile} from './normal-quantile.js';
import type {VarianceDecomposition} from './variance-decomposition.js';

/**
 * The trials per task at which a mean difference of `effect` is found with `power` (normal approximation): the
 * mean's variance over `tasks` tasks is (between + within / trials) / tasks, and trials shrink only the within part.
 * Null when the between-task spread alone is too wide (more tasks are needed, not more trials) or nothing is known.
 */
export function trialsForMeanPower(effect: number, tasks: number, spread: VarianceDecomposition, confidence: number, power: number): number | null {
	const within = spread.within_task;
	const between = spread.between_task ?? 0;
	if (within === null || effect === 0) return null;
	const z = normalQuantile(1 - (1 - confidence) / 2) + normalQuantile(power);
	const room = (effect / z) ** 2 * tasks - between;
	if (room <= 0) return null;
	return Math.max(1, Math.ceil(within / room));
}
