import type {AcceptancePolicy, EffectMargin} from '../plan/experiment-policy.js';
import type {Report} from '../attempt/report/report-schema.js';
import {pairedStatistics, signTestName, type PairedInterval, type PairedMetric, type PairedStatistics} from './statistics.js';
import {insufficientFewer, insufficientPasses, type Insufficient} from './insufficient.js';
import {resolveMargin, type ResolvedMargin} from './min-effect.js';

/** `insufficient`, when not satisfied: the effect favours the candidate, but not significantly (and what would show it). */
type Verdict = {satisfied: boolean; message: string; insufficient: Insufficient | null};

/**
 * The improvement rule when the policy sets `min_confidence`: a difference counts only when the paired statistics
 * over tasks × trials show it at that level, and every message carries the numbers it was judged on.
 */
export function significantImprovement(policy: AcceptancePolicy, confidence: number, baseline: Report, candidate: Report): Verdict {
	const turnsMargin = margin(policy.min_effect?.turns, baseline, 'turns');
	const tokensMargin = margin(policy.min_effect?.tokens, baseline, 'total_tokens');
	const statistics = ruleStatistics(policy, confidence, baseline, candidate);
	const turns = fewer('turns', statistics, interval(statistics, 'turns'), turnsMargin);
	const tokens = fewer('total tokens', statistics, interval(statistics, 'total_tokens'), tokensMargin);
	switch (policy.improvement) {
		case 'turns': return turns;
		case 'tokens': return tokens;
		case 'turns-or-tokens': return {satisfied: turns.satisfied || tokens.satisfied, message: `${turns.message}; ${tokens.message}`, insufficient: turns.satisfied || tokens.satisfied ? null : fewestTrials(turns.insufficient, tokens.insufficient)};
		case 'quality': return morePasses(statistics);
		case 'non-regression': return noSignificantRegression(statistics);
	}
}

/** The paired statistics the rule judges: at its confidence, with each statistic's `min_effect` resolved against the baseline. */
export function ruleStatistics(policy: AcceptancePolicy, confidence: number, baseline: Report, candidate: Report): PairedStatistics {
	const margins: Partial<Record<PairedMetric, number>> = {};
	const turns = margin(policy.min_effect?.turns, baseline, 'turns');
	const tokens = margin(policy.min_effect?.tokens, baseline, 'total_tokens');
	if (turns) margins.turns = turns.per_trial;
	if (tokens) margins.total_tokens = tokens.per_trial;
	return pairedStatistics(baseline, candidate, {confidence, margins});
}

function interval(statistics: PairedStatistics, metric: PairedInterval['metric']): PairedInterval {
	return statistics.differences.find(item => item.metric === metric)!;
}

const level = (statistics: PairedStatistics): string => `${Math.round(statistics.confidence * 100)}%`;

/** No `min_effect` for the statistic: a margin of zero. Undefined: a relative margin over a baseline with nothing known. */
function margin(given: EffectMargin | undefined, baseline: Report, metric: 'turns' | 'total_tokens'): ResolvedMargin | null | undefined {
	if (given === undefined) return null;
	return resolveMargin(given, baseline, metric) ?? undefined;
}

/**
 * Fewer only when the whole interval of the mean paired difference (candidate minus baseline) is below zero, or
 * below minus the `min_effect` margin when there is one.
 */
function fewer(what: string, statistics: PairedStatistics, difference: PairedInterval, resolved: ResolvedMargin | null | undefined): Verdict {
	if (difference.low === null || difference.high === null || difference.mean_difference === null || resolved === undefined) {
		return {satisfied: false, message: `${what}: no pair with both sides known (${difference.left_out} left out), which cannot show an improvement`, insufficient: null};
	}
	const numbers = `mean difference ${difference.mean_difference.toFixed(2)} per trial, ${level(statistics)} interval [${difference.low.toFixed(2)}, ${difference.high.toFixed(2)}] over ${difference.pairs} pairs${difference.left_out > 0 ? ` (${difference.left_out} unknown left out)` : ''}`;
	if (resolved !== null) return fewerBeyond(what, statistics, difference, resolved, numbers);
	return difference.high < 0
		? {satisfied: true, message: `${what}: fewer, significant at ${level(statistics)}: ${numbers}`, insufficient: null}
		: {satisfied: false, message: `${what}: not significantly fewer at ${level(statistics)}: ${numbers}`, insufficient: insufficientFewer(statistics, difference)};
}

/** The interval must lie below minus the margin; an observed saving within the margin is no case for more trials. */
function fewerBeyond(what: string, statistics: PairedStatistics, difference: PairedInterval, resolved: ResolvedMargin, numbers: string): Verdict {
	const high = difference.high!;
	const mean = difference.mean_difference!;
	if (high < -resolved.per_trial) return {satisfied: true, message: `${what}: fewer beyond the margin, significant at ${level(statistics)}: ${numbers}, all of it below -${resolved.per_trial.toFixed(2)} (${resolved.text})`, insufficient: null};
	const short = `${what}: not significantly fewer beyond the margin at ${level(statistics)}: ${numbers}, not all below -${resolved.per_trial.toFixed(2)} (${resolved.text})`;
	return {satisfied: false, message: short, insufficient: mean < -resolved.per_trial ? insufficientFewer(statistics, difference, resolved.per_trial) : null};
}

function signNumbers(statistics: PairedStatistics): string {
	const test = statistics.pass_fail;
	return `candidate alone passed ${test.candidate_only}, baseline alone ${test.baseline_only} of ${test.pairs} pairs, ${signTestName(test)} p = ${test.p_value.toPrecision(3)}`;
}

function morePasses(statistics: PairedStatistics): Verdict {
	const test = statistics.pass_fail;
	return test.significant && test.favours === 'candidate'
		? {satisfied: true, message: `quality: more passes, significant at ${level(statistics)}: ${signNumbers(statistics)}`, insufficient: null}
		: {satisfied: false, message: `quality: no significant gain in passes at ${level(statistics)}: ${signNumbers(statistics)}`, insufficient: insufficientPasses(statistics)};
}

function noSignificantRegression(statistics: PairedStatistics): Verdict {
	const test = statistics.pass_fail;
	return test.significant && test.favours === 'baseline'
		? {satisfied: false, message: `non-regression: the candidate passes significantly less at ${level(statistics)}: ${signNumbers(statistics)}`, insufficient: null}
		: {satisfied: true, message: `non-regression: no significant regression at ${level(statistics)}: ${signNumbers(statistics)}`, insufficient: null};
}

/** Of two statistics that each fall short, the one that more trials would show soonest. */
function fewestTrials(a: Insufficient | null, b: Insufficient | null): Insufficient | null {
	if (a === null || b === null) return a ?? b;
	if (a.more_trials_per_task === null) return b.more_trials_per_task === null ? a : b;
	return b.more_trials_per_task !== null && b.more_trials_per_task < a.more_trials_per_task ? b : a;
}
