import {exactSignTest, fewestSignificantPairs} from './sign-test.js';
import {normalCdf} from './normal-cdf.js';
import {normalQuantile} from './normal-quantile.js';

/** How likely one pair is discordant each way: the candidate alone passes it, or the baseline alone. */
export interface Discordance {
	candidate_only: number;
	baseline_only: number;
}

/** The discordance of two sides that pass independently, at pass rates `baselineRate` and `baselineRate + effect`. */
export function independentSides(baselineRate: number, effect: number): Discordance {
	const candidateRate = baselineRate + effect;
	return {candidate_only: candidateRate * (1 - baselineRate), baseline_only: baselineRate * (1 - candidateRate)};
}

/**
 * The exact power of the two-sided sign test over `pairs` pairs to find the candidate significantly better: the number
 * of discordant pairs is binomial, and given it, the candidate's share of them is binomial again.
 */
export function signTestPower(pairs: number, discordance: Discordance, confidence: number): number {
	const discordant = discordance.candidate_only + discordance.baseline_only;
	if (discordant <= 0) return 0;
	const share = discordance.candidate_only / discordant;
	let power = 0;
	for (let count = 1; count <= pairs; count += 1) {
		const critical = criticalCount(count, confidence);
		if (critical === null) continue;
		power += binomial(pairs, count, discordant) * upperTail(count, count - critical, share);
	}
	return Math.min(1, power);
}

/**
 * The power of the test the decision runs on pass/fail over `tasks` × `trials`: the exact sign test over pairs for one
 * trial per task, the sign-flip test over tasks with repeats (supervisor/statistics/task-sign-flip.ts).
 */
export function passFailPower(tasks: number, trials: number, discordance: Discordance, confidence: number): number {
	return trials === 1 ? signTestPower(tasks, discordance, confidence) : taskSignFlipPower(tasks, trials, discordance, confidence);
}

/**
 * The sign-flip test's power where every task passes alike (the sides independent, no task harder than another), by
 * the delta method on its statistic S − z·√Q (S = ΣD, Q = ΣD², D a task's net count over its trials, from the
 * moments of a sum of `trials` independent pairs). Zero below the fewest tasks whose signs can be significant at all:
 * 2 / 2^tasks is the smallest p-value of the test.
 */
export function taskSignFlipPower(tasks: number, trials: number, discordance: Discordance, confidence: number): number {
	if (tasks < fewestSignificantPairs(confidence)) return 0;
	const {candidate_only: up, baseline_only: down} = discordance;
	if (up <= down) return 0;
	const z = normalQuantile(1 - (1 - confidence) / 2);
	// One pair's net count X ∈ {1, −1, 0}: its mean, variance and third and fourth central moments.
	const mu = up - down;
	const square = up + down;
	const variance = square - mu ** 2;
	const third = mu - 3 * mu * square + 2 * mu ** 3;
	const fourth = square - 4 * mu * mu + 6 * mu ** 2 * square - 3 * mu ** 4;
	// D's cumulants over `trials` pairs, then its raw moments.
	const [k1, k2, k3, k4] = [trials * mu, trials * variance, trials * third, trials * (fourth - 3 * variance ** 2)];
	const e2 = k2 + k1 ** 2;
	const e3 = k3 + 3 * k2 * k1 + k1 ** 3;
	const e4 = k4 + 4 * k3 * k1 + 3 * k2 ** 2 + 6 * k2 * k1 ** 2 + k1 ** 4;
	const q = tasks * e2;
	const mean = tasks * k1 - z * Math.sqrt(q);
	const spread = tasks * k2 + (z ** 2 * tasks * (e4 - e2 ** 2)) / (4 * q) - (z * tasks * (e3 - k1 * e2)) / Math.sqrt(q);
	return spread <= 0 ? (mean > 0 ? 1 : 0) : normalCdf(mean / Math.sqrt(spread));
}

/** The fewest trials per task (at most `limit`) whose pairs reach `power` under the decision's test; null when even `limit` does not. */
export function trialsForPower(tasks: number, discordance: Discordance, confidence: number, power: number, limit = 1000): number | null {
	for (let trials = 1; trials <= limit; trials += 1) {
		if (passFailPower(tasks, trials, discordance, confidence) >= power) return trials;
	}
	return null;
}

/** The smallest pass-rate gain (in steps of 0.005) the decision's test finds with `power` over tasks × trials; null when none up to a perfect candidate. */
export function detectableEffect(tasks: number, trials: number, baselineRate: number, confidence: number, power: number): number | null {
	for (let step = 1; baselineRate + step * 0.005 <= 1 + 1e-9; step += 1) {
		const effect = Math.min(1 - baselineRate, step * 0.005);
		if (passFailPower(tasks, trials, independentSides(baselineRate, effect), confidence) >= power) return Math.round(effect * 1000) / 1000;
	}
	return null;
}

const criticalCounts = new Map<number, Array<number | null>>();

/** Critical counts grow by at most one per pair: each is found from the last, and kept per confidence. */
function criticalCount(n: number, confidence: number): number | null {
	const known = criticalCounts.get(confidence) ?? [];
	criticalCounts.set(confidence, known);
	for (let count = known.length + 1; count <= n; count += 1) {
		let critical = known[count - 2] ?? null;
		const next = critical === null ? 0 : critical + 1;
		if (2 * next < count && exactSignTest(count - next, next) <= 1 - confidence) critical = next;
		known.push(critical);
	}
	return known[n - 1]!;
}

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
	for (let k = logFactorials.length; k <= n; k += 1) logFactorials.push(logFactorials[k - 1]! + Math.log(k));
	return logFactorials[n]!;
}

function binomial(n: number, k: number, p: number): number {
	if (p >= 1) return k === n ? 1 : 0;
	if (p <= 0) return k === 0 ? 1 : 0;
	return Math.exp(logFactorial(n) - logFactorial(k) - logFactorial(n - k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
}

/** P(X ≥ from) for X binomial(n, p). */
function upperTail(n: number, from: number, p: number): number {
	let tail = 0;
	for (let k = from; k <= n; k += 1) tail += binomial(n, k, p);
	return tail;
}
