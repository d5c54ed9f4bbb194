/**
 * The exact sign-flip permutation test over tasks: each task's net count D (pairs the candidate alone passed minus
 * pairs the baseline alone passed) keeps its size and takes either sign with probability 1/2, independently per task,
 * so correlated repeats of one task move together. Two-sided p = P(|Σ ±|D|| ≥ |Σ D|), by dynamic programming over the
 * integer sums (exact, no sampling). Its normal approximation is the clustered McNemar statistic (ΣD)² / ΣD²
 * (Durkalski et al., Statistics in Medicine 2003); with one pair per task it is the exact sign test.
 */
export function taskSignFlipTest(netCounts: readonly number[]): number {
	const sizes = netCounts.map(Math.abs).filter(size => size > 0);
	const observed = Math.abs(netCounts.reduce((sum, value) => sum + value, 0));
	if (observed === 0) return 1;
	const total = sizes.reduce((sum, size) => sum + size, 0);
	// mass[s + total] = P(the flipped sum is s), over the tasks seen so far.
	let mass = new Float64Array(2 * total + 1);
	mass[total] = 1;
	for (const size of sizes) {
		const next = new Float64Array(mass.length);
		for (let at = 0; at < mass.length; at += 1) {
			const here = mass[at]!;
			if (here === 0) continue;
			next[at - size] = next[at - size]! + here / 2;
			next[at + size] = next[at + size]! + here / 2;
		}
		mass = next;
	}
	let tail = 0;
	for (let at = 0; at < mass.length; at += 1) if (Math.abs(at - total) >= observed) tail += mass[at]!;
	return Math.min(1, tail);
}
