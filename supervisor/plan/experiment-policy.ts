import {readFile} from 'node:fs/promises';
import {z} from 'zod';
import {InputError} from '../input-error.js';
import {describeIssues} from '../../controller-protocol/index.js';

export const Improvement = z.enum(['turns-or-tokens', 'turns', 'tokens', 'quality', 'non-regression']);
export type Improvement = z.infer<typeof Improvement>;

/** A margin per statistic: `absolute` in units per trial (turns or tokens), or `relative` to the baseline's mean per trial. */
export const EffectMargin = z.union([
	z.object({absolute: z.number().positive()}).strict(),
	z.object({relative: z.number().gt(0).lt(1)}).strict(),
]);
export type EffectMargin = z.infer<typeof EffectMargin>;

/** The smallest change that counts as an improvement, per statistic the improvement rule reads (`hlab eval --calibrate` measures the noise). */
export const MinEffect = z.object({
	turns: EffectMargin.optional(),
	tokens: EffectMargin.optional(),
}).strict().refine(effect => effect.turns !== undefined || effect.tokens !== undefined, 'min_effect names turns, tokens, or both');
export type MinEffect = z.infer<typeof MinEffect>;

export const AcceptancePolicy = z.object({
	/** Both sides must pass every task of the denominator. */
	require_all_pass: z.boolean().default(true),
	improvement: Improvement.default('turns-or-tokens'),
	/** Candidate wall time may be at most this multiple of the baseline's (supervisor-measured). */
	max_duration_ratio: z.number().positive().default(1.25),
	/** The time the ratio compares: `wall`, or `working` (wall time less the waits on the provider's limits and retries). */
	duration: z.enum(['wall', 'working']).default('wall'),
	/**
	 * With repeated trials: an improvement or a regression counts only when it is significant at this level (an exact
	 * sign test on pass/fail pairs, a seeded bootstrap interval for turns and tokens). Null judges the sums alone.
	 */
	min_confidence: z.number().gt(0).lt(1).nullable().default(null),
	/** An improvement in turns or tokens counts only beyond this margin; absent (not null) when none, so older plans keep their digests. */
	min_effect: MinEffect.optional(),
}).strict();
export type AcceptancePolicy = z.infer<typeof AcceptancePolicy>;

export const ExperimentPolicy = z.object({
	concurrency: z.number().int().min(1).max(256).default(1),
	acceptance: AcceptancePolicy.default(AcceptancePolicy.parse({})),
}).strict();
export type ExperimentPolicy = z.infer<typeof ExperimentPolicy>;

export class PolicyError extends InputError {
	readonly reason = 'policy';
}

/** Reads `--experiment-policy FILE`, or the defaults when none is given. */
export async function loadExperimentPolicy(path: string | null): Promise<ExperimentPolicy> {
	if (path === null) return ExperimentPolicy.parse({});
	let json: unknown;
	try {
		json = JSON.parse(await readFile(path, 'utf8'));
	} catch (error) {
		throw new PolicyError(`cannot read experiment policy ${path}: ${(error as Error).message}`);
	}
	const parsed = ExperimentPolicy.safeParse(json);
	if (!parsed.success) throw new PolicyError(`experiment policy ${path} is invalid: ${describeIssues(parsed.error)}`);
	return parsed.data;
}
