import {existsSync} from 'node:fs';
import {Command} from 'commander';
import {runAttempt, type AttemptOptions} from '../supervisor/attempt/index.js';
import {drainAttemptQueue, openRedisLink, queuePlacement, readQueueRecord} from '../supervisor/queue/index.js';
import {recoverAttempt} from '../supervisor/attempt/index.js';
import {recoverySummary, reportSummary} from '../supervisor/attempt/index.js';
import {writeReport} from '../supervisor/report/index.js';
import {compareEvidenceDir, compareReports, DecisionExistsError, writeDecision} from '../supervisor/compare/compare-reports.js';
import {decisionSummary} from '../supervisor/compare/decision-summary.js';
import type {Decision} from '../supervisor/compare/decision-schema.js';
import {buildPlan, frozenPlanSummary, writePlan} from '../supervisor/plan/freeze.js';
import {resolveSelection} from '../supervisor/plan/task-selection.js';
import {loadPlanCartridge} from '../supervisor/plan/cartridge-identity.js';
import type {TotalBudget} from '../supervisor/plan/plan-schema.js';
import {UsageError} from '../supervisor/input-error.js';
import {failedExit, fail, okExit, reviseExit} from './exit-codes.js';
import {parseBytes, positiveDuration, positiveInteger} from './parse-units.js';
import {addLimitOptions, addProviderOptions, readLimitFlags, readProviderFlags, type LimitFlags, type ProviderChoice, type ProviderFlags} from './provider-flags.js';
import {absolutePath, absolutePaths} from './path-option.js';

interface EvalFlags extends ProviderFlags, LimitFlags {
	task: string;
	repeat: string;
	experimentPolicy?: string;
	experimentController?: string;
	hypothesis?: string;
	responses?: string;
	maxTotalTokens?: string;
	maxTotalTasks?: string;
	config?: string;
	freeze?: string;
	plan?: string;
	candidate?: string;
	candidateHost?: string;
	cartridge?: string;
	candidateCartridge?: string;
	side?: string;
	artifacts?: string;
	keepWorkdirs?: boolean;
	threads?: string;
	sandbox?: boolean;
	compare?: string[];
	decisionOutput?: string;
	/** A path, or false for --no-html; absent: beside the decision. */
	html?: string | false;
	recover?: string;
	queue?: string;
	nodeLock?: string;
	evidenceLimit?: string;
	list?: boolean;
	json?: boolean;
}

export function registerEval(program: Command): void {
	const command = program
		.command('eval')
		.description('freeze a plan, run an attempt of it, compare two reports, recover a crashed attempt, or list tasks');
	// The provider, its limits and the budgets are frozen into the plan with --freeze.
	addLimitOptions(addProviderOptions(command))
		.option('--task <ids>', 'all, or a comma list of task ids (case ids with --cartridge)', 'all')
		.option('--repeat <n>', 'run each selected task n times, as entries <id>#1..#n (a pass rate over trials)', '1')
		.option('--experiment-policy <file>', 'concurrency and acceptance rule to freeze', absolutePath)
		.option('--experiment-controller <file>', 'controller identity to pin (tasks, schedule, setup, score come from it)', absolutePath)
		.option('--config <file>', `configuration file (default: ./harness-lab.config.json when present)`, absolutePath)
		.option('--freeze <plan.json>', 'write a plan; makes no model call', absolutePath)
		.option('--hypothesis <text>', 'with --freeze: what the experiment expects to show, frozen into the plan and shown with every decision')
		.option('--responses <file>', 'with --freeze and the scripted provider: a response script (per task or case id, the model turns to play; a cartridge needs one); its digest is frozen', absolutePath)
		.option('--max-total-tokens <n>', 'with --freeze: the attempt launches no task once its tasks used n tokens; the rest fail with reason budget')
		.option('--max-total-tasks <n>', 'with --freeze: the attempt launches at most n tasks; the rest fail with reason budget')
		.option('--plan <plan.json>', 'run one attempt of this plan', absolutePath)
		.option('--candidate <file.ts>', 'single-file candidate to load into the candidate slot', absolutePath)
		.option('--candidate-host <exe>', 'host executable (e.g. a build-host launcher) that runs every task as `EXE host-worker` in its own supervised process group', absolutePath)
		.option('--cartridge <dir>', 'with --freeze: the cartridge whose cases are the tasks, whose collectors and graders are the scorer and whose harness is the baseline', absolutePath)
		.option('--candidate-cartridge <dir>', 'with a cartridge plan: a changed cartridge whose harness runs the plan\'s cases (its cases, collectors and graders must be the plan\'s)', absolutePath)
		.option('--side <side>', 'record the attempt as the baseline or the candidate side (default: candidate with --candidate/--candidate-host, else baseline)')
		.option('--artifacts <dir>', 'new evidence directory of the attempt', absolutePath)
		.option('--keep-workdirs', 'keep task workspaces in the evidence')
		.option('--threads <n>', 'worker threads the in-process tasks share (default: the available cores, at most the frozen concurrency); not part of the plan')
		.option('--sandbox', 'with --freeze: run tool commands and host candidates under bubblewrap (frozen into the plan)')
		.option('--compare <baseline,candidate>', 'compare two report.json files', absolutePaths)
		.option('--decision-output <file>', 'write the decision here (never overwrites)', absolutePath)
		.option('--html <file>', 'with --decision-output: write the comparison page here (default: beside the decision, .html)', absolutePath)
		.option('--no-html', 'with --decision-output: write no comparison page')
		.option('--recover <dir>', 'rebuild the report of an attempt that ended without one', absolutePath)
		.option('--queue <url>', 'with --plan: run the tasks on `hlab queue-node` processes through this Redis (redis://HOST:PORT[/DB], rediss://, redis://:PASSWORD@...); with --recover: drain the attempt\'s queue there')
		.option('--node-lock <duration>', 'with --queue: how long a queue node may go without renewing its lock on a task before the task fails as worker_lost', '30s')
		.option('--evidence-limit <bytes>', 'with --queue: the largest exported evidence one task may send back; a larger one fails the task (evidence_limit)', '64MiB')
		.option('--list', 'print the tasks a selection resolves to')
		.option('--json', 'print one JSON document instead of the summary')
		.action(async (flags: EvalFlags) => {
			process.exitCode = await dispatch(flags);
		});
}

async function dispatch(flags: EvalFlags): Promise<number> {
	const modes = (['freeze', 'plan', 'compare', 'recover', 'list'] as const).filter(mode => flags[mode] !== undefined && flags[mode] !== false);
	if (modes.length !== 1) throw new UsageError(`choose exactly one of --freeze, --plan, --compare, --recover, --list (got ${modes.length === 0 ? 'none' : modes.map(mode => `--${mode}`).join(', ')})`);
	if (flags.hypothesis !== undefined && modes[0] !== 'freeze') throw new UsageError('--hypothesis is frozen into a plan: give it with --freeze');
	if ((flags.maxTotalTokens !== undefined || flags.maxTotalTasks !== undefined) && modes[0] !== 'freeze') throw new UsageError('--max-total-tokens and --max-total-tasks are frozen into a plan: give them with --freeze');
	if (flags.responses !== undefined && modes[0] !== 'freeze') throw new UsageError('--responses is frozen into a plan: give it with --freeze');
	if (flags.hypothesis !== undefined && flags.hypothesis.trim() === '') throw new UsageError('--hypothesis needs a text');
	if ((flags.cartridge !== undefined || flags.responses !== undefined) && modes[0] !== 'freeze') throw new UsageError('--cartridge and --responses are frozen into a plan: give them with --freeze');
	if (flags.candidateCartridge !== undefined && modes[0] !== 'plan') throw new UsageError('--candidate-cartridge runs an attempt: give it with --plan');
	if (flags.queue !== undefined && modes[0] !== 'plan' && modes[0] !== 'recover') throw new UsageError('--queue runs an attempt on queue nodes (with --plan) or drains a crashed one\'s queue (with --recover)');
	switch (modes[0]!) {
		case 'list': return list(flags);
		case 'freeze': return freeze(flags);
		case 'plan': return run(flags);
		case 'compare': return compare(flags);
		case 'recover': return recover(flags);
	}
}

function print(flags: EvalFlags, human: string, json: unknown): void {
	process.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : `${human}\n`);
}

function list(flags: EvalFlags): number {
	const tasks = resolveSelection(flags.task);
	print(flags, tasks.map(task => `${task.id}\t${task.title}${task.tools.length > 0 ? `\t(needs ${task.tools.join(', ')})` : ''}`).join('\n'),
		{tasks: tasks.map(task => ({id: task.id, title: task.title, tools: task.tools}))});
	return okExit;
}

async function freeze(flags: EvalFlags): Promise<number> {
	const {provider, maxSteps, timeoutMs} = requireResponses(readProviderFlags(flags), flags);
	const repeat = positiveInteger(flags.repeat, '--repeat');
	if (repeat !== 1 && flags.experimentController !== undefined) throw new UsageError('--repeat cannot be used with --experiment-controller: the controller owns the schedule');
	const plan = await buildPlan({
		provider,
		limits: readLimitFlags(flags),
		selection: flags.task,
		repeat,
		maxSteps,
		timeoutMs,
		policyPath: flags.experimentPolicy ?? null,
		controllerPath: flags.experimentController ?? null,
		configPath: flags.config ?? null,
		...(flags.hypothesis === undefined ? {} : {hypothesis: flags.hypothesis.trim()}),
		responsesPath: flags.responses ?? null,
		...totalBudgetOf(flags),
		sandbox: flags.sandbox === true,
		...(flags.cartridge === undefined ? {} : {cartridge: await loadPlanCartridge(flags.cartridge)}),
	});
	try {
		await writePlan(flags.freeze!, plan);
	} catch (error) {
		throw new UsageError(`cannot write plan ${flags.freeze}: ${(error as Error).message}`, 'plan_output');
	}
	print(flags, frozenPlanSummary(flags.freeze!, plan), {plan: flags.freeze, plan_digest: plan.plan_digest, task_ids: plan.task_ids});
	return okExit;
}

/** A cartridge's cases have no reference behaviour: with the scripted provider it needs a response script to play them. */
function requireResponses(choice: ProviderChoice, flags: EvalFlags): ProviderChoice {
	if (flags.responses === undefined && flags.cartridge !== undefined && choice.provider.kind === 'scripted') throw new UsageError('--cartridge with --provider scripted needs --responses FILE (a response script)');
	return choice;
}

/** The total budget the flags ask for, or nothing when neither is given (the plan then has none). */
function totalBudgetOf(flags: EvalFlags): {totalBudget?: TotalBudget} {
	if (flags.maxTotalTokens === undefined && flags.maxTotalTasks === undefined) return {};
	return {totalBudget: {
		max_total_tokens: flags.maxTotalTokens === undefined ? null : positiveInteger(flags.maxTotalTokens, '--max-total-tokens'),
		max_total_tasks: flags.maxTotalTasks === undefined ? null : positiveInteger(flags.maxTotalTasks, '--max-total-tasks'),
	}};
}

function sideOf(flags: EvalFlags): 'baseline' | 'candidate' | undefined {
	if (flags.side === undefined) return undefined;
	if (flags.side !== 'baseline' && flags.side !== 'candidate') throw new UsageError(`--side must be baseline or candidate, got '${flags.side}'`);
	return flags.side;
}

async function run(flags: EvalFlags): Promise<number> {
	if (!flags.artifacts) throw new UsageError('--plan needs --artifacts DIR (a new evidence directory)');
	if (flags.candidate !== undefined && flags.candidateHost !== undefined) throw new UsageError('give at most one of --candidate and --candidate-host');
	if (flags.threads !== undefined && flags.candidateHost !== undefined) throw new UsageError('--threads sizes the in-process worker threads; with --candidate-host every task is a process of its own');
	const side = sideOf(flags);
	if (flags.candidateHost !== undefined && !existsSync(flags.candidateHost)) throw new UsageError(`--candidate-host ${flags.candidateHost} does not exist`);
	const interrupt = new AbortController();
	const remotePlacement = flags.queue === undefined ? undefined : await queueOf(flags, interrupt);
	const onSignal = (): void => interrupt.abort();
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		const {dir, report} = await runAttempt({
			planPath: flags.plan!, artifacts: flags.artifacts, candidatePath: flags.candidate ?? null, candidateHost: flags.candidateHost ?? null, candidateCartridge: flags.candidateCartridge ?? null, side,
			keepWorkdirs: flags.keepWorkdirs === true, configPath: flags.config ?? null, signal: interrupt.signal, quiet: flags.json === true,
			threads: flags.threads === undefined ? null : positiveInteger(flags.threads, '--threads'),
			...(remotePlacement === undefined ? {} : {remotePlacement}),
		});
		print(flags, reportSummary(dir, report), {evidence: dir, report: `${dir}/report.json`, passed: report.passed, completion: report.completion, totals: report.totals, admission: report.admission});
		return report.passed ? okExit : failedExit;
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
	}
}

/** The queue placement, once Redis answers (a one-line error otherwise); a Redis lost mid-attempt interrupts it. */
async function queueOf(flags: EvalFlags, interrupt: AbortController): Promise<AttemptOptions['remotePlacement']> {
	if (flags.candidate !== undefined || flags.candidateHost !== undefined || flags.candidateCartridge !== undefined) throw new UsageError('--queue runs the plan\'s own harness on queue nodes; --candidate, --candidate-host and --candidate-cartridge are not carried to queue nodes yet');
	if (flags.threads !== undefined) throw new UsageError('--threads sizes local worker threads; with --queue each queue node sets its own --parallel-tasks and --threads');
	const lockMs = positiveDuration(flags.nodeLock!, '--node-lock');
	const evidenceLimitBytes = bytesFlag(flags.evidenceLimit!, '--evidence-limit');
	const link = await openRedisLink(flags.queue!);
	return queuePlacement(link, {
		lockMs, evidenceLimitBytes, keepWorkspace: flags.keepWorkdirs === true,
		onLost: why => {
			process.stderr.write(`hlab: ${why}; the attempt ends as interrupted\n`);
			interrupt.abort();
		},
		say: line => void process.stderr.write(`hlab: ${line}\n`),
	});
}

function bytesFlag(text: string, flag: string): number {
	try {
		return parseBytes(text);
	} catch (error) {
		throw new UsageError(`${flag}: ${(error as Error).message}`);
	}
}

async function compare(flags: EvalFlags): Promise<number> {
	const paths = flags.compare!;
	if (paths.length !== 2) throw new UsageError('--compare needs exactly two reports: baseline/report.json,candidate/report.json');
	const output = flags.decisionOutput ?? null;
	// Refused before any controller call: a decision is never overwritten, so there is nothing to decide.
	if (output !== null && existsSync(output)) throw new DecisionExistsError(`decision output ${output} already exists; decisions are never overwritten`);
	const html = pageOutput(flags, output);
	if (html !== null && existsSync(html)) throw new DecisionExistsError(`comparison page ${html} already exists; pages are never overwritten (--no-html to skip it)`);
	const decision = await compareReports(paths[0]!, paths[1]!, {evidenceDir: output === null ? null : compareEvidenceDir(output)});
	if (output !== null) await writeDecision(output, decision);
	if (html !== null && output !== null) await writeReport({baseline: paths[0]!, candidate: paths[1]!, decision: output}, html);
	print(flags, decisionSummary(decision, output, html), decision);
	// A refused timing is said on stderr too, so a script sees why no duration was compared.
	if (decision.timing?.kind === 'refused') fail(`comparison refused (${decision.timing.reason}): ${decision.timing.message}`, failedExit);
	return exitOf(decision.decision);
}

/** Where the comparison page goes: --html, or beside the decision file; none with --no-html or without a decision file. */
function pageOutput(flags: EvalFlags, decisionOutput: string | null): string | null {
	if (flags.html === false) return null;
	if (decisionOutput === null) {
		if (flags.html !== undefined) throw new UsageError('--html needs --decision-output: the page shows a decision that was written');
		return null;
	}
	return flags.html ?? decisionOutput.replace(/(\.json)?$/, '.html');
}

function exitOf(decision: Decision['decision']): number {
	switch (decision) {
		case 'accept': return okExit;
		case 'revise': return reviseExit;
		case 'reject': return failedExit;
	}
}

async function recover(flags: EvalFlags): Promise<number> {
	const {report, killed} = await recoverAttempt(flags.recover!);
	const queued = await readQueueRecord(flags.recover!);
	if (queued !== null) {
		const {jobs} = await drainAttemptQueue(queued, flags.queue ?? null).catch((error: Error) => {
			throw new UsageError(`the report was written, but the attempt's queue ${queued.queue} could not be removed (give --queue URL, with its password if it has one): ${error.message}`, 'queue_drain');
		});
		process.stderr.write(`hlab: the attempt's queue ${queued.queue} was withdrawn and removed (${jobs} job${jobs === 1 ? '' : 's'} waiting or running)\n`);
	}
	print(flags, recoverySummary(flags.recover!, report, killed), {report: `${flags.recover}/report.json`, totals: report.totals, killed});
	return failedExit;
}
