import {independentSides, passFailPower, trialsForPower} from '../statistics/sign-test-power.js';

/** `hlab plan size`: the pass-rate gain to find, over how many tasks, at which confidence and power. */
export interface SizeQuestion {
	effect: number;
	tasks: number;
	confidence: number;
	baseline_rate: number;
	power: number;
}

export interface SizeAnswer extends SizeQuestion {
	/** The fewest trials per task whose pairs find the gain with `power`; null past `trial_limit`. */
	trials_per_task: number | null;
	pairs: number | null;
	/** The exact power at that size. */
	power_reached: number | null;
	trial_limit: number;
}

const trialLimit = 1000;

/** The inverse of the freeze's power line: the trials per task at which the decision's test (the sign test, or with repeats the sign-flip test over tasks) finds `effect` (sides passing independently). */
export function planSize(question: SizeQuestion): SizeAnswer {
	const discordance = independentSides(question.baseline_rate, question.effect);
	const trials = trialsForPower(question.tasks, discordance, question.confidence, question.power, trialLimit);
	const pairs = trials === null ? null : trials * question.tasks;
	return {...question, trials_per_task: trials, pairs, power_reached: trials === null ? null : passFailPower(question.tasks, trials, discordance, question.confidence), trial_limit: trialLimit};
}

export function sizeText(answer: SizeAnswer): string {
	const level = `${Math.round(answer.confidence * 1000) / 10}%`;
	const what = `a pass-rate gain of ${answer.effect} from ${answer.baseline_rate} at ${level} with ${answer.power * 100}% power (${answer.trials_per_task === 1 ? 'exact sign test' : 'sign-flip test over tasks'}, sides passing independently, every task alike)`;
	if (answer.trials_per_task === null) return `more than ${answer.trial_limit} trials per task over ${answer.tasks} tasks would be needed for ${what}: add tasks`;
	return `${answer.trials_per_task} trials per task over ${answer.tasks} tasks (${answer.pairs} pairs, power ${answer.power_reached!.toFixed(3)}) for ${what}`;
}
