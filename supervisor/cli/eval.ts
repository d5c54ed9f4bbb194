import {existsSync} from 'node:fs';
import type {Command} from 'commander';
import {runAttempt} from '../attempt/run-attempt.js';
import {recoverAttempt} from '../attempt/recover.js';
import type {Report} from '../attempt/report-schema.js';
import {compareReports, writeDecision} from '../compare/compare-reports.js';
import type {Decision} from '../compare/decision-schema.js';
import {renderTable} from '../compare/table.js';
import {buildPlan, writePlan} from '../plan/freeze.js';
import type {PlanProvider} from '../plan/plan-schema.js';
import {resolveSelection} from '../plan/task-selection.js';
import {failedExit, fail, okExit, usageExit} from './exit-codes.js';
import {parseDuration} from './parse-units.js';

interface EvalFlags {
	provider?: string;
	model?: string;
	baseUrl?: string;
	apiKeyEnv?: string;
	reasoningEffort?: string;
	task: string;
	repeat: string;
	maxSteps: string;
	timeout: string;
	experimentPolicy?: string;
	experimentController?: string;
	config?: string;
	freeze?: string;
	plan?: string;
	candidate?: string;
	candidateHost?: string;
	side?: string;
	artifacts?: string;
	keepWorkdirs?: boolean;
	compare?: string;
	decisionOutput?: string;
	recover?: string;
	list?: boolean;
	json?: boolean;
}

/** Errors that mean the input was wrong carry one of these reasons; they exit 2. */
const badInputReasons = new Set(['host_dir_exists', 'unknown_task', 'configuration', 'policy', 'plan_invalid', 'evidence_exists', 'compare_input', 'decision_exists', 'not_an_attempt', 'already_reported', 'still_running', 'controller', 'usage']);

class UsageError extends Error {
	readonly reason = 'usage';
}

export function registerEval(program: Command): void {
	program
		.command('eval')
		.description('freeze a plan, run an attempt of it, compare two reports, recover a crashed attempt, or list tasks')
		.option('--provider <kind>', 'model provider: scripted or openai-compatible')
		.option('--model <name>', 'model name')
		.option('--base-url <url>', 'openai-compatible endpoint')
		.option('--api-key-env <name>', 'environment variable holding the API key (the key is never recorded)')
		.option('--reasoning-effort <level>', 'reasoning effort passed to the provider')
		.option('--task <ids>', 'all, or a comma list of task ids', 'all')
		.option('--repeat <n>', 'run each selected task n times, as entries <id>#1..#n (a pass rate over trials)', '1')
		.option('--max-steps <n>', 'model steps per task', '6')
		.option('--timeout <duration>', 'wall-clock limit per task (e.g. 2m)', '2m')
		.option('--experiment-policy <file>', 'concurrency and acceptance rule to freeze')
		.option('--experiment-controller <file>', 'controller identity to pin (tasks, schedule, setup, score come from it)')
		.option('--config <file>', `configuration file (default: ./harness-lab.config.json when present)`)
		.option('--freeze <plan.json>', 'write a plan; makes no model call')
		.option('--plan <plan.json>', 'run one attempt of this plan')
		.option('--candidate <file.ts>', 'single-file candidate to load into the candidate slot')
		.option('--candidate-host <exe>', 'host executable (e.g. a build-host launcher) that runs every task as `EXE host-worker` in its own supervised process group')
		.option('--side <side>', 'record the attempt as the baseline or the candidate side (default: candidate with --candidate/--candidate-host, else baseline)')
		.option('--artifacts <dir>', 'new evidence directory of the attempt')
		.option('--keep-workdirs', 'keep task workspaces in the evidence')
		.option('--compare <baseline,candidate>', 'compare two report.json files')
		.option('--decision-output <file>', 'write the decision here (never overwrites)')
		.option('--recover <dir>', 'rebuild the report of an attempt that ended without one')
		.option('--list', 'print the tasks a selection resolves to')
		.option('--json', 'print one JSON document instead of the summary')
		.action(async (flags: EvalFlags) => {
			try {
				process.exitCode = await dispatch(flags);
			} catch (error) {
				const reason = (error as {reason?: string}).reason;
				if (reason !== undefined && badInputReasons.has(reason)) return fail((error as Error).message, usageExit);
				throw error;
			}
		});
}

async function dispatch(flags: EvalFlags): Promise<number> {
	const modes = (['freeze', 'plan', 'compare', 'recover', 'list'] as const).filter(mode => flags[mode] !== undefined && flags[mode] !== false);
	if (modes.length !== 1) throw new UsageError(`choose exactly one of --freeze, --plan, --compare, --recover, --list (got ${modes.length === 0 ? 'none' : modes.map(mode => `--${mode}`).join(', ')})`);
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

function providerOf(flags: EvalFlags): PlanProvider {
	const kind = flags.provider ?? 'scripted';
	if (kind === 'scripted') return {kind: 'scripted', model: flags.model ?? 'reference'};
	if (kind !== 'openai-compatible') throw new UsageError(`unknown provider '${kind}' (use scripted or openai-compatible)`);
	if (!flags.model || !flags.baseUrl) throw new UsageError('--provider openai-compatible needs --model and --base-url');
	return {kind, model: flags.model, base_url: flags.baseUrl, api_key_env: flags.apiKeyEnv ?? null, reasoning_effort: flags.reasoningEffort ?? null};
}

function positiveInt(text: string, name: string): number {
	const value = Number(text);
	if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${name} must be a positive whole number, got '${text}'`);
	return value;
}

async function freeze(flags: EvalFlags): Promise<number> {
	let timeoutMs: number;
	try {
		timeoutMs = parseDuration(flags.timeout);
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	if (timeoutMs <= 0) throw new UsageError('--timeout must be positive');
	const repeat = positiveInt(flags.repeat, '--repeat');
	if (repeat !== 1 && flags.experimentController !== undefined) throw new UsageError('--repeat cannot be used with --experiment-controller: the controller owns the schedule');
	const plan = await buildPlan({
		provider: providerOf(flags),
		selection: flags.task,
		repeat,
		maxSteps: positiveInt(flags.maxSteps, '--max-steps'),
		timeoutMs,
		policyPath: flags.experimentPolicy ?? null,
		controllerPath: flags.experimentController ?? null,
		configPath: flags.config ?? null,
	});
	try {
		await writePlan(flags.freeze!, plan);
	} catch (error) {
		throw new UsageError(`cannot write plan ${flags.freeze}: ${(error as Error).message}`);
	}
	print(flags, [
		`plan ${flags.freeze} frozen (${plan.plan_digest})`,
		plan.repeat === 1
			? `  tasks (${plan.task_ids.length}): ${plan.task_ids.join(', ')}`
			: `  tasks (${plan.task_ids.length}): ${plan.tasks.map(task => task.id).join(', ')}, each ${plan.repeat} times (entries <id>#1..#${plan.repeat})`,
		`  provider ${plan.provider.kind}, model ${plan.provider.model}; ${plan.budgets.max_steps} steps, ${plan.budgets.timeout_ms} ms per task; concurrency ${plan.policy.concurrency}`,
		`  acceptance: ${JSON.stringify(plan.policy.acceptance)}`,
		`  scorer ${plan.scorer.kind} ${plan.scorer.digest}`,
	].join('\n'), {plan: flags.freeze, plan_digest: plan.plan_digest, task_ids: plan.task_ids});
	return okExit;
}

function sideOf(flags: EvalFlags): 'baseline' | 'candidate' | undefined {
	if (flags.side === undefined) return undefined;
	if (flags.side !== 'baseline' && flags.side !== 'candidate') throw new UsageError(`--side must be baseline or candidate, got '${flags.side}'`);
	return flags.side;
}

async function run(flags: EvalFlags): Promise<number> {
	if (!flags.artifacts) throw new UsageError('--plan needs --artifacts DIR (a new evidence directory)');
	if (flags.candidate !== undefined && flags.candidateHost !== undefined) throw new UsageError('give at most one of --candidate and --candidate-host');
	const side = sideOf(flags);
	if (flags.candidateHost !== undefined && !existsSync(flags.candidateHost)) throw new UsageError(`--candidate-host ${flags.candidateHost} does not exist`);
	const interrupt = new AbortController();
	const onSignal = (): void => interrupt.abort();
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		const {dir, report} = await runAttempt({
			planPath: flags.plan!, artifacts: flags.artifacts, candidatePath: flags.candidate ?? null, candidateHost: flags.candidateHost ?? null, side,
			keepWorkdirs: flags.keepWorkdirs === true, configPath: flags.config ?? null, signal: interrupt.signal, quiet: flags.json === true,
		});
		print(flags, reportSummary(dir, report), {evidence: dir, report: `${dir}/report.json`, passed: report.passed, completion: report.completion, totals: report.totals, admission: report.admission});
		return report.passed ? okExit : failedExit;
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
	}
}

export function reportSummary(dir: string, report: Report): string {
	const lines = [
		`${report.side} attempt ${report.completion} (${report.timing}${report.host === null ? '' : ` ${report.host.launched}`}): ${report.totals.passed}/${report.totals.tasks} passed${report.passed ? '' : ' (attempt not passed)'}`,
		`  evidence ${dir}; report ${dir}/report.json`,
		`  turns ${report.totals.turns ?? 'unknown'}, tokens ${report.totals.total_tokens ?? 'unknown'}, task wall ${report.totals.wall_ms === null ? 'unknown' : `${Math.round(report.totals.wall_ms)} ms`}`,
	];
	if (!report.admission.admitted) lines.push('  admission rejected:', ...report.admission.differences.map(line => `    - ${line}`));
	for (const task of report.tasks) if (task.status === 'failed') lines.push(`  ${task.task_id}: failed (${task.reason ?? 'graded'}) ${task.message ?? ''}`.trimEnd());
	for (const problem of report.problems) lines.push(`  problem: ${problem}`);
	return lines.join('\n');
}

async function compare(flags: EvalFlags): Promise<number> {
	const paths = flags.compare!.split(',').map(path => path.trim()).filter(path => path.length > 0);
	if (paths.length !== 2) throw new UsageError('--compare needs exactly two reports: baseline/report.json,candidate/report.json');
	const decision = await compareReports(paths[0]!, paths[1]!);
	if (flags.decisionOutput) await writeDecision(flags.decisionOutput, decision);
	print(flags, decisionSummary(decision, flags.decisionOutput ?? null), decision);
	// A refused timing is said on stderr too, so a script sees why no duration was compared.
	if (decision.timing?.kind === 'refused') fail(`comparison refused (${decision.timing.reason}): ${decision.timing.message}`, failedExit);
	return decision.decision === 'accept' ? okExit : failedExit;
}

export function decisionSummary(decision: Decision, output: string | null): string {
	return [
		renderTable(decision.tasks),
		'',
		`decision: ${decision.decision.toUpperCase()}`,
		...decision.checks.map(check => `  ${check.satisfied ? 'ok ' : 'NO '} ${check.rule}: ${check.message.replaceAll('\n', '\n        ')}`),
		...(output === null ? [] : [`decision written to ${output}`]),
	].join('\n');
}

async function recover(flags: EvalFlags): Promise<number> {
	const {report, killed} = await recoverAttempt(flags.recover!);
	const recorded = report.tasks.filter(task => task.reason !== 'unfinished').length;
	print(flags, [
		`recovered ${flags.recover}: ${recorded}/${report.tasks.length} tasks were recorded, the rest failed as unfinished`,
		`  ${report.totals.passed} passed, ${report.totals.failed} failed; report ${flags.recover}/report.json`,
		killed.length > 0 ? `  killed surviving processes: ${killed.join(', ')}` : '  no process of the attempt survived',
	].join('\n'), {report: `${flags.recover}/report.json`, totals: report.totals, killed});
	return failedExit;
}
