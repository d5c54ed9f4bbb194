/**
 * Holm's step-down adjustment: the i-th smallest p-value of m is multiplied by m − i + 1, then made non-decreasing
 * in that order and capped at 1. Returned in the input's order; reject where the adjusted value is at most alpha.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
	const m = pValues.length;
	const order = pValues.map((p, index) => ({p, index})).sort((x, y) => x.p - y.p || x.index - y.index);
	const adjusted = new Array<number>(m);
	let running = 0;
	order.forEach(({p, index}, rank) => {
		running = Math.max(running, Math.min(1, (m - rank) * p));
		adjusted[index] = running;
	});
	return adjusted;
}
