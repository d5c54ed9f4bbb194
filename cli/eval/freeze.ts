import type {Command} from 'commander';
import type {TotalBudget} from '../../supervisor/plan/plan-schema.js';
import {UsageError} from '../../supervisor/input-error.js';
import {okExit} from '../exit-codes.js';
import {positiveBytes, positiveInteger} from '../parse-units.js';
import {absolutePath, outputPath} from '../path-option.js';
import {addLimitOptions, addProviderOptions, readLimitFlags, readProviderFlags, type LimitFlags, type ProviderChoice, type ProviderFlags} from '../provider-flags.js';
import type {EvalMode} from './eval-mode.js';
import {printResult} from './print-result.js';

interface FreezeFlags extends ProviderFlags, LimitFlags {
	freeze: string;
	task: string;
	repeat: string;
	experimentPolicy?: string;
	experimentController?: string;
	config?: string;
	hypothesis?: string;
	responses?: string;
	maxTotalTokens?: string;
	maxTotalTasks?: string;
	cartridge?: string;
	harborTasks?: string;
	sandbox?: boolean;
	agent?: string;
	pilot?: string;
	workspaceLimit?: string;
	memoryLimit?: string;
	json?: boolean;
}

/** `hlab eval --freeze`: everything an attempt will hold fixed, written once as a plan; no model call. */
export const freezeMode: EvalMode = {
	name: 'freeze',
	addTrigger: command => command.option('--freeze <plan.json>', 'write a plan; makes no model call', outputPath),
	own: {
		modes: ['freeze'], why: 'is frozen into a plan',
		add: command => addLimitOptions(addProviderOptions(command))
			.option('--repeat <n>', 'run each selected task n times, as entries <id>#1..#n (a pass rate over trials)', '1')
			.option('--experiment-policy <file>', 'concurrency and acceptance rule to freeze', absolutePath)
			.option('--experiment-controller <file>', 'controller identity to pin (tasks, schedule, setup, score come from it)', absolutePath)
			.option('--hypothesis <text>', 'what the experiment expects to show, frozen into the plan and shown with every decision')
			.option('--responses <file>', 'with the scripted provider: a response script (per task or case id, the model turns to play; a cartridge needs one); its digest is frozen', absolutePath)
			.option('--max-total-tokens <n>', 'the attempt launches no task once its tasks used n tokens; the rest fail with reason budget')
			.option('--max-total-tasks <n>', 'the attempt launches at most n tasks; the rest fail with reason budget')
			.option('--cartridge <dir>', 'the cartridge whose cases are the tasks, whose collectors and graders are the scorer and whose harness is the baseline', absolutePath)
			.option('--harbor-tasks <dir>', 'a Harbor task folder (or a folder of them) as the tasks: instruction.md the prompt, task.toml the deadlines, tests/ the verifier; runs under --sandbox (docs/harbor.md)', absolutePath)
			.option('--pilot <report.json>', 'a prior baseline report: its pass rate and its spread of turns, tokens and duration size the power line (needs min_confidence)', absolutePath)
			.option('--workspace-limit <size>', 'the most room a task\'s workspace may take (allocated blocks, e.g. 512MiB; default 256MiB); past it the task is ended, reason workspace_limit')
			.option('--memory-limit <size>', 'the memory each process of a task may hold (cgroup memory.max where delegated, else RLIMIT_DATA; e.g. 8GiB; default 4GiB)')
			.option('--sandbox', 'run in-process tasks (in a sandboxed task runner), tool commands, graders\' runs of workspace code and host candidates under bubblewrap, hidden data absent (frozen into the plan; docs/trust.md)'),
	},
	run: async (flags: FreezeFlags, command) => freeze(flags, command),
};

async function freeze(flags: FreezeFlags, command: Command): Promise<number> {
	const {provider, maxSteps, deadlineMs} = requireResponses(readProviderFlags(flags), flags);
	// A cartridge's cases run under its contract's budgets, a Harbor task under its task.toml's deadline, unless the command line names others (a default is not a choice).
	const given = (key: string): boolean => (flags.cartridge === undefined && (flags.harborTasks === undefined || key !== 'timeout')) || command.getOptionValueSource(key) === 'cli';
	const repeat = positiveInteger(flags.repeat, '--repeat');
	if (repeat !== 1 && flags.experimentController !== undefined) throw new UsageError('--repeat cannot be used with --experiment-controller: the controller owns the schedule');
	const warnings: string[] = [];
	// The plan's engine is loaded by the mode that runs, not by every `hlab eval` (bench/README.md, the test suite).
	const [{buildPlan, frozenPlanSummary, writePlan}, {noiseWarning}] = await Promise.all([import('../../supervisor/plan/freeze.js'), import('../../supervisor/plan/noise-warning.js')]);
	const plan = await buildPlan({
		provider,
		limits: readLimitFlags(flags),
		selection: flags.task,
		repeat,
		maxSteps: given('maxSteps') ? maxSteps : null,
		deadlineMs: given('timeout') ? deadlineMs : null,
		...taskLimitFlags(flags),
		policyPath: flags.experimentPolicy ?? null,
		controllerPath: flags.experimentController ?? null,
		configPath: flags.config ?? null,
		...hypothesisOf(flags),
		responsesPath: flags.responses ?? null,
		...totalBudgetOf(flags),
		sandbox: flags.sandbox === true,
		...(flags.agent === undefined ? {} : {agentSpec: flags.agent}),
		...(flags.cartridge === undefined ? {} : {cartridge: await (await import('../../supervisor/plan/cartridge-identity.js')).loadPlanCartridge(flags.cartridge)}),
		...(flags.harborTasks === undefined ? {} : {harborDir: flags.harborTasks}),
		warn: line => warnings.push(line),
		...(flags.pilot === undefined ? {} : {pilot: await (await import('../read-pilot.js')).readPilot(flags.pilot)}),
	});
	try {
		await writePlan(flags.freeze, plan);
	} catch (error) {
		throw new UsageError(`cannot write plan ${flags.freeze}: ${(error as Error).message}`, 'plan_output');
	}
	printResult(flags, frozenPlanSummary(flags.freeze, plan), {plan: flags.freeze, plan_digest: plan.plan_digest, task_ids: plan.task_ids});
	// Warnings, not refusals: a quick look needs no calibration; a decision that matters does.
	for (const warning of [...warnings, noiseWarning(plan)]) if (warning !== null) process.stderr.write(`hlab: ${warning}\n`);
	return okExit;
}

/** A cartridge's cases and Harbor tasks have no reference behaviour: with the scripted provider it needs a response script to play them. */
function requireResponses(choice: ProviderChoice, flags: FreezeFlags): ProviderChoice {
	const source = flags.cartridge !== undefined ? '--cartridge' : flags.harborTasks !== undefined ? '--harbor-tasks' : null;
	if (flags.responses === undefined && source !== null && choice.provider.kind === 'scripted') throw new UsageError(`${source} with --provider scripted needs --responses FILE (a response script)`);
	return choice;
}

function hypothesisOf(flags: FreezeFlags): {hypothesis?: string} {
	if (flags.hypothesis === undefined) return {};
	if (flags.hypothesis.trim() === '') throw new UsageError('--hypothesis needs a text');
	return {hypothesis: flags.hypothesis.trim()};
}

/** The total budget the flags ask for, or nothing when neither is given (the plan then has none). */
function totalBudgetOf(flags: FreezeFlags): {totalBudget?: TotalBudget} {
	if (flags.maxTotalTokens === undefined && flags.maxTotalTasks === undefined) return {};
	return {totalBudget: {
		max_total_tokens: flags.maxTotalTokens === undefined ? null : positiveInteger(flags.maxTotalTokens, '--max-total-tokens'),
		max_total_tasks: flags.maxTotalTasks === undefined ? null : positiveInteger(flags.maxTotalTasks, '--max-total-tasks'),
	}};
}

/** The per-task workspace and memory limits asked for; the plan's defaults for those not given. */
function taskLimitFlags(flags: FreezeFlags): {workspaceLimitBytes?: number; memoryLimitBytes?: number} {
	return {
		...(flags.workspaceLimit === undefined ? {} : {workspaceLimitBytes: positiveBytes(flags.workspaceLimit, '--workspace-limit')}),
		...(flags.memoryLimit === undefined ? {} : {memoryLimitBytes: positiveBytes(flags.memoryLimit, '--memory-limit')}),
	};
}
