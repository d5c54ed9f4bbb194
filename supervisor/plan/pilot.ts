import {z} from 'zod';
import {clustersOf} from '../statistics/clusters.js';
import {varianceDecomposition} from '../statistics/variance-decomposition.js';
import {detectableMeanDifference} from '../statistics/mean-difference-detectable.js';
import {entryTaskId} from './task-selection.js';

const PilotStatistic = z.enum(['turns', 'total_tokens', 'wall_ms']);

/** One statistic's spread in the pilot: how much a task's trials vary, and how much tasks differ. */
export const PilotSpread = z.object({
	statistic: PilotStatistic,
	/** Entries whose value is known. */
	known: z.number().int().nonnegative(),
	mean: z.number().nullable(),
	between_task: z.number().nonnegative().nullable(),
	/** The variance of one trial around its task's mean; null when the pilot has no repeat. */
	within_task: z.number().nonnegative().nullable(),
});
export type PilotSpread = z.infer<typeof PilotSpread>;

/** What a pilot needs of a report's entry (the plan sits below the report format, so it names only these fields). */
export interface PilotEntry {
	task_id: string;
	status: string;
	usage: {turns: number | null; total_tokens: number | null} | null;
	wall_ms: number | null;
}

/** What a prior baseline report tells a plan about its noise. */
export interface Pilot {
	report: string;
	entries: number;
	tasks: number;
	/** The pilot's pass rate over its entries. */
	pass_rate: number;
	spreads: PilotSpread[];
}

/** The smallest mean difference per trial each statistic can show, from the pilot's spread. */
export const PilotDetectable = z.object({
	statistic: PilotStatistic,
	/** Null when the pilot knows nothing of the statistic, or the plan has one task. */
	detectable_difference: z.number().nonnegative().nullable(),
	/** The same as a fraction of the pilot's mean per trial; null when that is unknown or 0. */
	relative: z.number().nonnegative().nullable(),
	/**
	 * Without repeats in the pilot the spread between trials of one task is unknown: the whole spread is taken as
	 * within, so the difference is an upper bound.
	 */
	at_most: z.boolean(),
});
export type PilotDetectable = z.infer<typeof PilotDetectable>;

/** A pilot from a report's entries, read by the caller (`cli/read-pilot.ts`). */
export function pilotOf(path: string, entries: readonly PilotEntry[]): Pilot {
	const tasks = new Set(entries.map(entry => entryTaskId(entry.task_id)));
	const passed = entries.filter(entry => entry.status === 'passed').length;
	return {report: path, entries: entries.length, tasks: tasks.size, pass_rate: entries.length === 0 ? 0 : passed / entries.length, spreads: PilotStatistic.options.map(statistic => spreadOf(statistic, entries))};
}

/**
 * Per statistic, the smallest mean paired difference `tasks` × `trials` shows with `power`: a paired difference of
 * two sides that each vary like the pilot's trials varies twice as much as one, and a task's own level cancels in the pair.
 */
export function pilotDetectable(pilot: Pilot, tasks: number, trials: number, confidence: number, power: number): PilotDetectable[] {
	return pilot.spreads.map(spread => {
		const within = spread.within_task ?? spread.between_task;
		const difference = within === null ? null : detectableMeanDifference(2 * within, tasks, trials, confidence, power);
		const rounded = difference === null ? null : round(difference);
		const relative = rounded === null || spread.mean === null || spread.mean === 0 ? null : round(rounded / Math.abs(spread.mean));
		return {statistic: spread.statistic, detectable_difference: rounded, relative, at_most: spread.within_task === null};
	});
}

function spreadOf(statistic: PilotSpread['statistic'], tasks: readonly PilotEntry[]): PilotSpread {
	const groups = new Map<string, number[]>();
	for (const task of tasks) {
		const value = statistic === 'wall_ms' ? task.wall_ms : task.usage?.[statistic] ?? null;
		if (value === null) continue;
		groups.set(entryTaskId(task.task_id), [...groups.get(entryTaskId(task.task_id)) ?? [], value]);
	}
	const values = [...groups.values()].flat();
	if (values.length === 0) return {statistic, known: 0, mean: null, between_task: null, within_task: null};
	const split = varianceDecomposition(clustersOf([...groups.values()]));
	// With one trial per task the split cannot tell within from between: the total spread, kept as between.
	const total = values.length > 1 ? variance(values) : null;
	return {statistic, known: values.length, mean: values.reduce((sum, value) => sum + value, 0) / values.length, between_task: split.within_task === null ? total : split.between_task, within_task: split.within_task};
}

function variance(values: number[]): number {
	const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
	return values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
}

function round(value: number): number {
	return Math.round(value * 1e4) / 1e4;
}
