import {studentQuantile} from './student-quantile.js';

/**
 * The smallest mean paired difference per trial found with `power` over `tasks` × `trials` when a paired difference
 * varies with variance `differenceVariance` around its mean and tasks do not differ in it: (t(1 − α/2) + t(power)) ·
 * √(variance / (tasks · trials)), with G − 1 degrees of freedom as the task-clustered interval has. Null with one task.
 */
export function detectableMeanDifference(differenceVariance: number, tasks: number, trials: number, confidence: number, power: number): number | null {
	if (tasks < 2) return null;
	const df = tasks - 1;
	return (studentQuantile(1 - (1 - confidence) / 2, df) + studentQuantile(power, df)) * Math.sqrt(differenceVariance / (tasks * trials));
}
