/** Paired differences grouped by task: each cluster's sum and count, in typed arrays so resampling stays fast. */
export interface Clusters {
	sums: Float64Array;
	counts: Float64Array;
	/** Every difference with its cluster's index, for the within-task spread. */
	values: Float64Array;
	owners: Int32Array;
}

/** Clusters from differences in groups (one group per task); an empty group is left out. */
export function clustersOf(groups: readonly (readonly number[])[]): Clusters {
	const kept = groups.filter(group => group.length > 0);
	const total = kept.reduce((sum, group) => sum + group.length, 0);
	const clusters: Clusters = {sums: new Float64Array(kept.length), counts: new Float64Array(kept.length), values: new Float64Array(total), owners: new Int32Array(total)};
	let at = 0;
	kept.forEach((group, index) => {
		let sum = 0;
		for (const value of group) {
			sum += value;
			clusters.values[at] = value;
			clusters.owners[at] = index;
			at += 1;
		}
		clusters.sums[index] = sum;
		clusters.counts[index] = group.length;
	});
	return clusters;
}

/** The mean over every difference (not the mean of task means): each trial weighs the same. */
export function clusteredMean(clusters: Clusters): number {
	let sum = 0;
	let count = 0;
	for (let index = 0; index < clusters.sums.length; index += 1) {
		sum += clusters.sums[index]!;
		count += clusters.counts[index]!;
	}
	return sum / count;
}
