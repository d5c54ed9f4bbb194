import {clusteredMean, type Clusters} from './clusters.js';

/**
 * The cluster-robust (CR1) standard error of the mean difference: residuals summed within each task, so correlated
 * repeats count once; G/(G−1) corrects for few tasks. Null with fewer than two tasks, where it is not defined.
 */
export function clusterRobustSE(clusters: Clusters): number | null {
	const tasks = clusters.sums.length;
	if (tasks < 2) return null;
	const mean = clusteredMean(clusters);
	let total = 0;
	let squares = 0;
	for (let index = 0; index < tasks; index += 1) {
		const residual = clusters.sums[index]! - clusters.counts[index]! * mean;
		squares += residual * residual;
		total += clusters.counts[index]!;
	}
	return Math.sqrt((tasks / (tasks - 1)) * squares) / total;
}
