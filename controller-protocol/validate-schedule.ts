import {maxConcurrency} from './methods.js';
import {repeatedIds} from './task.js';

export type ScheduleCheck =
	| {ok: true}
	| {
		ok: false;
		/** Task ids that the order leaves out. */
		missing: string[];
		/** Task ids that the order names more than once. */
		repeated: string[];
		/** Ids in the order that are not tasks of the selection. */
		unknown: string[];
		/** Set when the concurrency is not an integer in 1-256. */
		concurrency: number | null;
		message: string;
	};

/** Checks that a schedule runs every selected task exactly once, at a concurrency in 1-256. */
export function validateSchedule(taskIds: readonly string[], schedule: {order: readonly string[]; concurrency: number}): ScheduleCheck {
	const selected = new Set(taskIds);
	const ordered = new Set(schedule.order);
	const missing = taskIds.filter(id => !ordered.has(id));
	const repeated = repeatedIds(schedule.order);
	const unknown = [...ordered].filter(id => !selected.has(id));
	const concurrencyOk = Number.isInteger(schedule.concurrency) && schedule.concurrency >= 1 && schedule.concurrency <= maxConcurrency;
	if (missing.length === 0 && repeated.length === 0 && unknown.length === 0 && concurrencyOk) return {ok: true};
	const problems = [
		missing.length > 0 ? `leaves out ${missing.join(', ')}` : null,
		repeated.length > 0 ? `repeats ${repeated.join(', ')}` : null,
		unknown.length > 0 ? `names unknown tasks ${unknown.join(', ')}` : null,
		concurrencyOk ? null : `has concurrency ${schedule.concurrency}, not an integer in 1-${maxConcurrency}`,
	].filter(problem => problem !== null);
	return {ok: false, missing, repeated, unknown, concurrency: concurrencyOk ? null : schedule.concurrency, message: `the schedule ${problems.join('; ')}`};
}
