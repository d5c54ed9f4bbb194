import {uniformInt} from 'pure-rand/distribution/uniformInt';
import {xoroshiro128plus} from 'pure-rand/generator/xoroshiro128plus';
import type {Clusters} from './clusters.js';
import {normalCdf} from './normal-cdf.js';
import {studentQuantile} from './student-quantile.js';

export interface Interval {
	low: number;
	high: number;
}

/**
 * A seeded percentile bootstrap of the mean difference that resamples whole tasks, not entries: repeats of one
 * task are correlated, and resampling them one by one would count them as independent. With one entry per task it
 * draws exactly what the entry-level bootstrap draws. `expanded` widens it for few tasks (below).
 */
export function clusterBootstrap(clusters: Clusters, confidence: number, seed: number, resamples: number, expanded = false): Interval {
	const means = resampleMeans(clusters, seed, resamples).sort();
	const alpha = expanded ? expandedAlpha(1 - confidence, clusters.sums.length) : 1 - confidence;
	return {low: quantile(means, alpha / 2), high: quantile(means, 1 - alpha / 2)};
}

/**
 * Hesterberg's expanded percentile interval ("What teachers should know about the bootstrap", 2015): the plain
 * percentile interval is too narrow over few clusters (its variance is (G−1)/G of the sample's, and it uses z where t
 * belongs), so the tail is taken at α' with z(α'/2) = √(G/(G−1)) · t(α/2, G−1).
 */
function expandedAlpha(alpha: number, clusters: number): number {
	if (clusters < 2) return alpha;
	const widened = Math.sqrt(clusters / (clusters - 1)) * studentQuantile(1 - alpha / 2, clusters - 1);
	return 2 * normalCdf(-widened);
}

/**
 * The two-sided p-value of a mean difference equal to `at` (0 unless a margin is tested) that matches the interval
 * above: the largest 1 − confidence at which the interval still holds `at` (so it is at most 1 − confidence exactly
 * when the interval excludes it). Found by bisection over confidence, drawing the same resamples each time.
 */
export function clusterBootstrapPValue(clusters: Clusters, seed: number, resamples: number, expanded = false, at = 0): number {
	const means = resampleMeans(clusters, seed, resamples).sort();
	const holds = (alpha: number): boolean => {
		const tail = expanded ? expandedAlpha(alpha, clusters.sums.length) : alpha;
		return quantile(means, tail / 2) <= at && quantile(means, 1 - tail / 2) >= at;
	};
	if (holds(1)) return 1;
	// Resamples cannot tell p-values below one in `resamples` apart: that is the floor, never 0.
	const floor = 1 / resamples;
	if (!holds(floor)) return floor;
	let low = floor;
	let high = 1;
	for (let step = 0; step < 40; step += 1) {
		const middle = (low + high) / 2;
		if (holds(middle)) low = middle;
		else high = middle;
	}
	return high;
}

/** The same seed gives the same resamples: the interval is reproducible. */
function resampleMeans(clusters: Clusters, seed: number, resamples: number): Float64Array {
	const rng = xoroshiro128plus(seed);
	const size = clusters.sums.length;
	const means = new Float64Array(resamples);
	for (let round = 0; round < resamples; round += 1) {
		let sum = 0;
		let count = 0;
		for (let draw = 0; draw < size; draw += 1) {
			const picked = uniformInt(rng, 0, size - 1);
			sum += clusters.sums[picked]!;
			count += clusters.counts[picked]!;
		}
		means[round] = sum / count;
	}
	return means;
}

function quantile(sorted: Float64Array, q: number): number {
	const position = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
	return sorted[position]!;
}
