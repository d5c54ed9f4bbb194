import type {EffectMargin} from '../plan/experiment-policy.js';
import type {Report} from '../attempt/report/report-schema.js';

/** A margin resolved against the baseline: how much a candidate must save per trial, and how to say so. */
export interface ResolvedMargin {
	per_trial: number;
	text: string;
}

/** Absolute margins are per trial already; relative ones scale the baseline's mean per trial (null when that is unknown). */
export function resolveMargin(margin: EffectMargin, baseline: Report, metric: 'turns' | 'total_tokens'): ResolvedMargin | null {
	if ('absolute' in margin) return {per_trial: margin.absolute, text: `min_effect ${margin.absolute} per trial`};
	const mean = baselineMean(baseline, metric);
	if (mean === null) return null;
	const perTrial = margin.relative * mean;
	return {per_trial: perTrial, text: `min_effect ${percent(margin.relative)} of the baseline's ${mean.toFixed(1)} per trial (${perTrial.toFixed(2)} per trial)`};
}

/** The baseline's mean per trial over the entries whose usage is known; null when none is. */
function baselineMean(report: Report, metric: 'turns' | 'total_tokens'): number | null {
	const known = report.tasks.map(task => task.usage?.[metric] ?? null).filter((value): value is number => value !== null);
	return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0) / known.length;
}

export function percent(fraction: number): string {
	return `${(fraction * 100).toFixed(fraction * 100 < 1 ? 2 : 1)}%`;
}
