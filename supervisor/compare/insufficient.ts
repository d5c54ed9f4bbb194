import {z} from 'zod';
import {trialsForPower} from '../statistics/sign-test-power.js';
import {trialsForMeanPower} from '../statistics/mean-difference-power.js';
import type {PairedInterval, PairedStatistics} from './statistics.js';

/** The power the advice aims for. */
const targetPower = 0.8;
/** Beyond this many trials per task, more trials are not the answer. */
const trialLimit = 1000;

/**
 * Why a decision is `insufficient`: the observed effect favours the candidate but is not significant, and how many
 * trials per task (the same tasks) would find an effect that large with 80% power. Null trials: more trials alone
 * would not (the tasks themselves differ too much, or nothing is known); add tasks instead.
 */
export const Insufficient = z.object({
	statistic: z.enum(['pass_fail', 'turns', 'total_tokens']),
	tasks: z.number().int().positive(),
	trials_per_task: z.number().int().positive(),
	power: z.number().gt(0).lt(1),
	needed_trials_per_task: z.number().int().positive().nullable(),
	more_trials_per_task: z.number().int().positive().nullable(),
	/** With one trial per task the within-task spread is unknown: the whole spread is taken as within, so the count is a floor. */
	at_least: z.boolean(),
	message: z.string(),
});
export type Insufficient = z.infer<typeof Insufficient>;

/** The sign test found the candidate ahead but not significantly: the trials that would find that lead. */
export function insufficientPasses(statistics: PairedStatistics): Insufficient | null {
	const test = statistics.pass_fail;
	if (test.significant || test.favours !== 'candidate' || test.pairs === 0) return null;
	const tasks = statistics.tasks.length;
	const trials = Math.max(...statistics.tasks.map(task => task.trials));
	const discordance = {candidate_only: test.candidate_only / test.pairs, baseline_only: test.baseline_only / test.pairs};
	const needed = firstAbove(trials, next => trialsForPower(tasks, discordance, statistics.confidence, targetPower, next));
	return advice('pass_fail', tasks, trials, needed, false);
}

/**
 * The observed mean saving is beyond the margin (0 without `min_effect`) but the interval reaches past it: the trials
 * that would put all of it below minus the margin. The effect to find is the saving beyond the margin, not the whole
 * saving: an interval that already excludes zero can still fall short of the margin.
 */
export function insufficientFewer(statistics: PairedStatistics, interval: PairedInterval, margin = 0): Insufficient | null {
	if (interval.mean_difference === null || interval.high === null || interval.tasks === null || interval.tasks === 0) return null;
	if (interval.high < -margin || interval.mean_difference >= -margin) return null;
	const trials = Math.max(1, Math.round(interval.pairs / interval.tasks));
	// One trial per task: the spread between tasks cannot be told from the spread between trials.
	const floor = interval.within_task === null;
	const spread = floor ? {between_task: 0, within_task: interval.between_task} : {between_task: interval.between_task, within_task: interval.within_task};
	const needed = trialsForMeanPower(-interval.mean_difference - margin, interval.tasks, spread, statistics.confidence, targetPower);
	const statistic = interval.metric === 'turns' ? 'turns' : 'total_tokens';
	return advice(statistic, interval.tasks, trials, needed === null ? null : Math.max(needed, trials + 1), floor);
}

/** The fewest trials past the current count: an effect already powered but not found is bad luck, and one more round is the least to ask. */
function firstAbove(current: number, search: (limit: number) => number | null): number | null {
	const needed = search(trialLimit);
	return needed === null ? null : Math.max(needed, current + 1);
}

/** What to do, in one line; the numbers it was judged on are in the improvement check beside it. */
function advice(statistic: Insufficient['statistic'], tasks: number, trials: number, needed: number | null, atLeast: boolean): Insufficient {
	const more = needed === null || needed > trialLimit ? null : needed - trials;
	const what = statistic === 'pass_fail' ? 'passes' : statistic === 'turns' ? 'turns' : 'total tokens';
	const message = more === null
		? `${what}: the candidate is ahead but not significantly, and more trials of these ${tasks} tasks would not give ${targetPower * 100}% power for an effect this large: add tasks`
		: `${what}: the candidate is ahead but not significantly: ${atLeast ? 'at least ' : ''}${needed} trials per task (${more} more than ${trials}) over the same ${tasks} tasks would give ${targetPower * 100}% power for an effect this large`;
	return {statistic, tasks, trials_per_task: trials, power: targetPower, needed_trials_per_task: more === null ? null : needed, more_trials_per_task: more, at_least: atLeast, message};
}
