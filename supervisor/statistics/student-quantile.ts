/**
 * Student's t quantile for whole degrees of freedom: the t with P(T ≤ t) = p, by bisection on the exact distribution
 * function (the finite series of Abramowitz & Stegun 26.7.3 and 26.7.4), to 1e-10.
 */
export function studentQuantile(p: number, df: number): number {
	if (!(p > 0 && p < 1) || !Number.isInteger(df) || df < 1) throw new RangeError(`Student quantile of ${p} with ${df} degrees of freedom`);
	if (p < 0.5) return -studentQuantile(1 - p, df);
	const target = 2 * p - 1;
	let low = 0;
	let high = 1;
	while (centralMass(high, df) < target) high *= 2;
	while (high - low > 1e-10 * Math.max(1, high)) {
		const middle = (low + high) / 2;
		if (centralMass(middle, df) < target) low = middle;
		else high = middle;
	}
	return (low + high) / 2;
}

/** P(|T| ≤ t) for Student's t with `df` degrees of freedom. */
function centralMass(t: number, df: number): number {
	const theta = Math.atan(t / Math.sqrt(df));
	const cos2 = Math.cos(theta) ** 2;
	const sin = Math.sin(theta);
	if (df % 2 === 1) {
		// Odd: (2/π)(θ + sinθ cosθ (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + …)), the sum up to cos^(df−3).
		let term = 1;
		let sum = df > 1 ? 1 : 0;
		for (let k = 1; 2 * k + 1 <= df - 2; k += 1) {
			term *= (2 * k * cos2) / (2 * k + 1);
			sum += term;
		}
		return (2 / Math.PI) * (theta + sin * Math.cos(theta) * sum);
	}
	// Even: sinθ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + …), the sum up to cos^(df−2).
	let term = 1;
	let sum = 1;
	for (let k = 1; 2 * k <= df - 2; k += 1) {
		term *= ((2 * k - 1) * cos2) / (2 * k);
		sum += term;
	}
	return sin * sum;
}
