/** Two-sided exact binomial test of k successes in n = a + b discordant pairs against p = 1/2, summed in log space so large n does not underflow. */
export function exactSignTest(a: number, b: number): number {
	const n = a + b;
	if (n === 0) return 1;
	const k = Math.min(a, b);
	let logChoose = 0;
	let tail = 0;
	for (let i = 0; i <= k; i += 1) {
		if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
		tail += Math.exp(logChoose - n * Math.LN2);
	}
	return Math.min(1, 2 * tail);
}

/**
 * The sign test's critical count: the most discordant pairs the losing side may win while the other side's lead is
 * still significant at `confidence` (two-sided), or null when no split of n pairs is significant.
 */
export function signTestCriticalCount(n: number, confidence: number): number | null {
	let critical: number | null = null;
	for (let minority = 0; 2 * minority < n; minority += 1) {
		if (exactSignTest(n - minority, minority) > 1 - confidence) break;
		critical = minority;
	}
	return critical;
}

/** The fewest discordant pairs, all one way, that the sign test finds significant at `confidence`. */
export function fewestSignificantPairs(confidence: number): number {
	let n = 1;
	while (signTestCriticalCount(n, confidence) === null) n += 1;
	return n;
}
