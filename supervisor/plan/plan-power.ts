import {z} from 'zod';
import {InputError} from '../input-error.js';
import {fewestSignificantPairs} from '../statistics/sign-test.js';
import {detectableEffect} from '../statistics/sign-test-power.js';
import type {AcceptancePolicy} from './experiment-policy.js';
import {PilotDetectable, pilotDetectable, type Pilot} from './pilot.js';
import {readable} from './readable-number.js';

/** The power the plan is sized for. */
const targetPower = 0.8;
/** Without a pilot the baseline's pass rate is unknown: one half, where a pass/fail pair varies most. */
const assumedBaselineRate = 0.5;

/**
 * What the plan's shape can show on pass/fail before anything runs: the test the decision will run (the exact sign
 * test over pairs, or with repeats the sign-flip test over tasks) at the rule's `min_confidence`. `detectable_effect` assumes the two sides pass independently around `baseline_rate`.
 */
export const PlanPower = z.object({
	statistic: z.literal('pass_fail'),
	tasks: z.number().int().positive(),
	trials_per_task: z.number().int().positive(),
	pairs: z.number().int().positive(),
	confidence: z.number().gt(0).lt(1),
	power: z.number().gt(0).lt(1),
	/** One half without a pilot; the pilot's pass rate with one. */
	baseline_rate: z.number().min(0).max(1),
	/** The fewest discordant pairs (with repeats: tasks), all won by one side, that the test can find significant. */
	fewest_discordant_pairs: z.number().int().positive(),
	/** The smallest pass-rate gain found with `power`; null when no gain up to a perfect candidate is. */
	detectable_effect: z.number().positive().nullable(),
	/** With `--pilot REPORT`: the prior baseline report whose pass rate and spread were used, and what turns, tokens and duration can show. Absent without one. */
	pilot: z.object({
		report: z.string(),
		entries: z.number().int().nonnegative(),
		tasks: z.number().int().nonnegative(),
		detectable: z.array(PilotDetectable),
	}).optional(),
});
export type PlanPower = z.infer<typeof PlanPower>;

export class UnattainableRuleError extends InputError {
	readonly reason = 'unattainable_rule';
}

/** The plan's power when its rule judges significance (none otherwise); a quality rule that no result could meet is refused. */
export function planPower(acceptance: AcceptancePolicy, tasks: number, trials: number, pilot?: Pilot): PlanPower | undefined {
	const confidence = acceptance.min_confidence;
	if (confidence === null) return undefined;
	const pairs = tasks * trials;
	const fewest = fewestSignificantPairs(confidence);
	// With repeats the test flips whole tasks, so it is tasks, not pairs, that must reach the fewest.
	const units = trials === 1 ? pairs : tasks;
	if (acceptance.improvement === 'quality' && units < fewest) throw new UnattainableRuleError(unattainable(confidence, tasks, trials, fewest));
	const baselineRate = pilot?.pass_rate ?? assumedBaselineRate;
	return {
		statistic: 'pass_fail', tasks, trials_per_task: trials, pairs, confidence, power: targetPower, baseline_rate: baselineRate,
		fewest_discordant_pairs: fewest,
		detectable_effect: detectableEffect(tasks, trials, baselineRate, confidence, targetPower),
		...(pilot === undefined ? {} : {pilot: {report: pilot.report, entries: pilot.entries, tasks: pilot.tasks, detectable: pilotDetectable(pilot, tasks, trials, confidence, targetPower)}}),
	};
}

/** Over one trial per task more trials help (the sign test counts pairs); with repeats only more tasks do (the sign-flip test counts tasks). */
function unattainable(confidence: number, tasks: number, trials: number, fewest: number): string {
	const over = `min_confidence ${confidence} can never be met over ${shape(tasks, trials)}`;
	if (trials === 1 && tasks === 1) return `${over}: the exact sign test needs at least ${fewest} paired trials, all won by the candidate, and with repeats at least ${fewest} tasks; freeze ${shape(fewest, 1)}`;
	if (trials === 1) return `${over}: the exact sign test needs at least ${fewest} paired trials, all won by the candidate; with repeats it flips whole tasks and needs at least ${fewest} tasks, so freeze ${shape(fewest, 1)} or more tasks`;
	return `${over}: the exact sign-flip test over tasks needs at least ${fewest} tasks, all won by the candidate, however many trials each; freeze ${shape(fewest, trials)}`;
}

/** The lines the freeze prints. */
export function powerText(power: PlanPower): string {
	const level = `${Math.round(power.confidence * 1000) / 10}%`;
	const from = power.pilot === undefined ? `from a ${readable(power.baseline_rate * 100)}% baseline pass rate, sides independent` : `from the pilot's ${readable(power.baseline_rate * 100)}% pass rate, sides independent`;
	const effect = power.detectable_effect === null
		? `no pass-rate gain is found with ${readable(power.power * 100)}% power`
		: `the smallest pass-rate gain found with ${readable(power.power * 100)}% power is ${readable(power.detectable_effect)} (${from})`;
	const line = `power: over ${shape(power.tasks, power.trials_per_task)} (${power.pairs} pairs) at ${level}, ${effect}; significance needs at least ${power.fewest_discordant_pairs} ${power.trials_per_task === 1 ? 'discordant pairs' : 'tasks with a net win'}`;
	return power.pilot === undefined ? line : `${line}\n  ${pilotText(power.pilot)}`;
}

/** What the pilot's spread lets turns, tokens and duration show. */
export function pilotText(pilot: NonNullable<PlanPower['pilot']>): string {
	const names = {turns: 'turns', total_tokens: 'total tokens', wall_ms: 'wall ms'};
	const each = pilot.detectable.map(item => item.detectable_difference === null
		? `${names[item.statistic]} unknown`
		: `${names[item.statistic]} ${item.at_most ? 'at most ' : ''}${readable(item.detectable_difference)} per trial${item.relative === null ? '' : ` (${readable(item.relative * 100)}% of the pilot's mean)`}`);
	return `pilot ${pilot.report} (${pilot.entries} entries over ${pilot.tasks} tasks): the smallest mean saving found with 80% power: ${each.join(', ')}${pilot.detectable.some(item => item.at_most) ? ' (at most: the pilot has no repeats, so its spread between tasks stands for the spread between trials)' : ''}`;
}


function shape(tasks: number, trials: number): string {
	return `${tasks} task${tasks === 1 ? '' : 's'} × ${trials} trial${trials === 1 ? '' : 's'}`;
}
