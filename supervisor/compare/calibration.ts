import {z} from 'zod';
import {EffectMargin} from '../plan/experiment-policy.js';
import type {Report, TaskResult} from '../attempt/report/report-schema.js';
import {percent} from './min-effect.js';

export const calibrationSchema = 'harness-lab/calibration@1';

/** One statistic over two identical runs of the baseline: what the same harness does twice, the noise floor. */
export const CalibrationStatistic = z.object({
	statistic: z.enum(['turns', 'total_tokens', 'wall_ms']),
	/** The two runs' totals; null when a task's value is unknown on that run. */
	a: z.number().nullable(),
	b: z.number().nullable(),
	/** |b − a|, then as a fraction of their mean, then per trial (over the denominator's entries). */
	spread: z.number().nullable(),
	relative: z.number().nullable(),
	per_trial: z.number().nullable(),
	/** The entry whose value moved most between the runs. */
	largest: z.object({task_id: z.string(), spread: z.number()}).nullable(),
	/** The margin to freeze as this statistic's `min_effect` (twice the spread: one pair of runs understates it); null: no spread seen or not a min_effect statistic. */
	suggested_min_effect: EffectMargin.nullable(),
});
export type CalibrationStatistic = z.infer<typeof CalibrationStatistic>;

export const Calibration = z.object({
	schema: z.literal(calibrationSchema),
	plan_digest: z.string(),
	entries: z.number().int().positive(),
	runs: z.object({a: z.string(), b: z.string()}),
	statistics: z.array(CalibrationStatistic),
	/** The `min_effect` object the suggestions make together; null when neither statistic moved. */
	min_effect: z.object({turns: EffectMargin.optional(), tokens: EffectMargin.optional()}).nullable(),
});
export type Calibration = z.infer<typeof Calibration>;

type Statistic = CalibrationStatistic['statistic'];

const valueOf = (task: TaskResult, statistic: Statistic): number | null =>
	statistic === 'wall_ms' ? task.wall_ms ?? null : task.usage?.[statistic] ?? null;

/** The spread between two attempts of the same plan with the same baseline (an A/A calibration). */
export function calibrationOf(a: {dir: string; report: Report}, b: {dir: string; report: Report}): Calibration {
	const statistics = (['turns', 'total_tokens', 'wall_ms'] as const).map(statistic => spreadOf(statistic, a.report, b.report));
	const margin = (statistic: Statistic) => statistics.find(item => item.statistic === statistic)!.suggested_min_effect;
	const turns = margin('turns');
	const tokens = margin('total_tokens');
	return Calibration.parse({
		schema: calibrationSchema,
		plan_digest: a.report.plan_digest,
		entries: a.report.tasks.length,
		runs: {a: a.dir, b: b.dir},
		statistics,
		min_effect: turns === null && tokens === null ? null : {...turns === null ? {} : {turns}, ...tokens === null ? {} : {tokens}},
	});
}

function spreadOf(statistic: Statistic, a: Report, b: Report): CalibrationStatistic {
	const total = (report: Report): number | null => {
		const values = report.tasks.map(task => valueOf(task, statistic));
		return values.includes(null) ? null : (values as number[]).reduce((sum, value) => sum + value, 0);
	};
	const ta = total(a);
	const tb = total(b);
	const spread = ta === null || tb === null ? null : Math.abs(tb - ta);
	const mean = ta === null || tb === null ? null : (ta + tb) / 2;
	const relative = spread === null || mean === null || mean === 0 ? null : spread / mean;
	return {
		statistic, a: ta, b: tb, spread, relative,
		per_trial: spread === null ? null : spread / a.tasks.length,
		largest: largestOf(statistic, a, b),
		suggested_min_effect: statistic === 'wall_ms' || relative === null || relative === 0 ? null : {relative: suggestion(relative)},
	};
}

/** Twice the observed relative spread, rounded up to a whole per mille, below 1. */
function suggestion(relative: number): number {
	return Math.min(0.999, Math.ceil(relative * 2 * 1000) / 1000);
}

function largestOf(statistic: Statistic, a: Report, b: Report): CalibrationStatistic['largest'] {
	let largest: CalibrationStatistic['largest'] = null;
	a.tasks.forEach((task, index) => {
		const va = valueOf(task, statistic);
		const vb = b.tasks[index] === undefined ? null : valueOf(b.tasks[index], statistic);
		if (va === null || vb === null) return;
		if (largest === null || Math.abs(vb - va) > largest.spread) largest = {task_id: task.task_id, spread: Math.abs(vb - va)};
	});
	return largest;
}

const show = (value: number): string => Number.isInteger(value) ? String(value) : value.toFixed(1);

const names: Record<Statistic, string> = {turns: 'turns', total_tokens: 'total tokens', wall_ms: 'wall ms'};

/** What a person reads after a calibration: each statistic's two totals and their spread, then the margin to freeze. */
export function calibrationSummary(path: string, calibration: Calibration): string {
	const lines = calibration.statistics.map(item => {
		if (item.spread === null) return `  ${names[item.statistic]}: unknown on a run, no spread measured`;
		const relative = item.relative === null ? '' : ` (${percent(item.relative)})`;
		const largest = item.largest === null || item.largest.spread === 0 ? '' : `, most on ${item.largest.task_id} (${show(item.largest.spread)})`;
		return `  ${names[item.statistic]}: ${show(item.a!)} and ${show(item.b!)}, spread ${show(item.spread)}${relative}, ${item.per_trial!.toFixed(2)} per trial${largest}`;
	});
	const advice = calibration.min_effect === null
		? 'no spread in turns or tokens between the identical runs: any change is beyond this run\'s noise (calibrate again, or repeat, before a decision that matters)'
		: `suggested min_effect (twice the spread): ${JSON.stringify(calibration.min_effect)}`;
	return [`calibration ${path}: the baseline twice under plan ${calibration.plan_digest}, ${calibration.entries} entries each`, ...lines, `  ${advice}`].join('\n');
}
