import type {Clusters} from './clusters.js';

/** How much of the differences' spread lies between tasks and how much between repeats of one task. */
export interface VarianceDecomposition {
	/** The variance of a task's true mean difference around the grand mean; null with fewer than two tasks. */
	between_task: number | null;
	/** The variance of one trial around its task's mean; null without any repeat. */
	within_task: number | null;
}

/** One-way random-effects estimates (method of moments), the between part floored at zero. */
export function varianceDecomposition(clusters: Clusters): VarianceDecomposition {
	const tasks = clusters.sums.length;
	const entries = clusters.values.length;
	let within = 0;
	for (let at = 0; at < entries; at += 1) {
		const owner = clusters.owners[at]!;
		const residual = clusters.values[at]! - clusters.sums[owner]! / clusters.counts[owner]!;
		within += residual * residual;
	}
	const withinTask = entries > tasks ? within / (entries - tasks) : null;
	if (tasks < 2) return {between_task: null, within_task: withinTask};
	const means = Array.from(clusters.sums, (sum, index) => sum / clusters.counts[index]!);
	const grand = means.reduce((sum, value) => sum + value, 0) / tasks;
	const spread = means.reduce((sum, value) => sum + (value - grand) ** 2, 0) / (tasks - 1);
	const perTask = entries / tasks;
	return {between_task: Math.max(0, spread - (withinTask ?? 0) / perTask), within_task: withinTask};
}
