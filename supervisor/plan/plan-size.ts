import {independentSides, passFailPower, trialsForPower} from '../statistics/sign-test-power.js';
import {pilotDetectable, type Pilot, type PilotDetectable} from './pilot.js';
import {readable} from './readable-number.js';

/** `hlab plan size`: the pass-rate gain to find, over how many tasks, at which confidence and power. */
export interface SizeQuestion {
	effect: number;
	tasks: number;
	confidence: number;
	baseline_rate: number;
	power: number;
	/** `--pilot REPORT`: its pass rate is the baseline's, and its spread says what turns, tokens and duration show at the answer. */
	pilot?: Pilot;
}

export interface SizeAnswer extends Omit<SizeQuestion, 'pilot'> {
	/** With a pilot: the report, and the smallest mean difference per trial each statistic shows at `trials_per_task`. */
	pilot?: {report: string; detectable: PilotDetectable[]};
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
	const {pilot, ...asked} = question;
	const answer: SizeAnswer = {...asked, trials_per_task: trials, pairs, power_reached: trials === null ? null : passFailPower(question.tasks, trials, discordance, question.confidence), trial_limit: trialLimit};
	if (pilot === undefined || trials === null) return answer;
	return {...answer, pilot: {report: pilot.report, detectable: pilotDetectable(pilot, question.tasks, trials, question.confidence, question.power)}};
}

export function sizeText(answer: SizeAnswer): string {
	const level = `${Math.round(answer.confidence * 1000) / 10}%`;
	const what = `a pass-rate gain of ${readable(answer.effect)} from ${readable(answer.baseline_rate)} at ${level} with ${readable(answer.power * 100)}% power (${answer.trials_per_task === 1 ? 'exact sign test' : 'sign-flip test over tasks'}, sides passing independently, every task alike)`;
	if (answer.trials_per_task === null) return `more than ${answer.trial_limit} trials per task over ${answer.tasks} tasks would be needed for ${what}: add tasks`;
	const line = `${answer.trials_per_task} trials per task over ${answer.tasks} tasks (${answer.pairs} pairs, power ${answer.power_reached!.toFixed(3)}) for ${what}`;
	if (answer.pilot === undefined) return line;
	const names = {turns: 'turns', total_tokens: 'total tokens', wall_ms: 'wall ms'};
	const each = answer.pilot.detectable.map(item => `${names[item.statistic]} ${item.detectable_difference === null ? 'unknown' : `${item.at_most ? 'at most ' : ''}${readable(item.detectable_difference)}`}`);
	return `${line}\nat that size, from the spread in ${answer.pilot.report}, the smallest mean saving per trial found with the same power: ${each.join(', ')}`;
}
