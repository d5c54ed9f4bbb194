import type {Command} from 'commander';
import type {SizeQuestion} from '../supervisor/plan/plan-size.js';
import {UsageError} from '../supervisor/input-error.js';
import {failedExit, okExit} from './exit-codes.js';
import {positiveInteger} from './parse-units.js';
import {absolutePath} from './path-option.js';
import {printResult} from './eval/print-result.js';

interface SizeFlags {
	effect: string;
	tasks?: string;
	plan?: string;
	confidence?: string;
	baselineRate?: string;
	pilot?: string;
	power: string;
	json?: boolean;
}

export function registerPlan(program: Command): void {
	const plan = program.command('plan').description('size an evaluation plan before freezing it: how many trials per task a pass-rate change needs');
	plan.command('size')
		.description('the trials per task at which the decision\'s pass/fail test (with repeats, the sign-flip test over tasks) finds a pass-rate gain with the given power')
		.requiredOption('--effect <gain>', 'the pass-rate gain to find, e.g. 0.15 for 15 points')
		.option('--tasks <n>', 'the number of tasks (or --plan)')
		.option('--plan <plan.json>', 'take the number of tasks and min_confidence from a frozen plan', absolutePath)
		.option('--confidence <level>', 'the confidence level (default: the plan\'s min_confidence, else 0.95)')
		.option('--baseline-rate <rate>', 'the baseline\'s pass rate (default: the pilot\'s, else 0.5)')
		.option('--pilot <report.json>', 'a prior baseline report: its pass rate, and its spread of turns, tokens and duration at the answer', absolutePath)
		.option('--power <power>', 'the power to reach', '0.8')
		.option('--json', 'print the answer as JSON')
		.action(async (flags: SizeFlags) => {
			// Loaded when the command runs, not by its --help.
			const {planSize, sizeText} = await import('../supervisor/plan/plan-size.js');
			const answer = planSize(await questionOf(flags));
			printResult(flags, sizeText(answer), answer);
			process.exitCode = answer.trials_per_task === null ? failedExit : okExit;
		});
}

async function questionOf(flags: SizeFlags): Promise<SizeQuestion> {
	if ((flags.tasks === undefined) === (flags.plan === undefined)) throw new UsageError('give --tasks N or --plan plan.json, one of them');
	const frozen = flags.plan === undefined ? null : (await (await import('../supervisor/attempt/read-evidence.js')).readPlanFile(flags.plan)).plan;
	const pilot = flags.pilot === undefined ? undefined : await (await import('./read-pilot.js')).readPilot(flags.pilot);
	const question = {
		effect: fraction(flags.effect, '--effect'),
		tasks: frozen === null ? positiveInteger(flags.tasks!, '--tasks') : frozen.tasks.length,
		confidence: flags.confidence === undefined ? frozen?.policy.acceptance.min_confidence ?? 0.95 : fraction(flags.confidence, '--confidence'),
		baseline_rate: flags.baselineRate === undefined ? pilot?.pass_rate ?? 0.5 : fraction(flags.baselineRate, '--baseline-rate'),
		power: fraction(flags.power, '--power'),
		...(pilot === undefined ? {} : {pilot}),
	};
	if (question.baseline_rate + question.effect > 1) throw new UsageError(`${flags.baselineRate === undefined && pilot !== undefined ? 'the pilot\'s pass rate' : '--baseline-rate'} ${question.baseline_rate} plus --effect ${question.effect} is past a pass rate of 1`);
	return question;
}

/** A number strictly between 0 and 1; anything else is bad input naming the flag. */
function fraction(text: string, flag: string): number {
	const value = Number(text);
	if (!(value > 0 && value < 1)) throw new UsageError(`${flag} must be a number between 0 and 1, got '${text}'`);
	return value;
}
