import type {TaskDefinition} from '../../tasks/index.js';
import type {ProviderLimits} from '../../engine/index.js';
import {loadConfiguration} from './configuration.js';
import {loadExperimentPolicy} from './experiment-policy.js';
import {hlabVersion} from './hlab-version.js';
import {computeIdentities, type Identities} from './identities.js';
import {sealPlan} from './plan-digest.js';
import {planSchema, type Plan, type PlanCartridge, type PlanController, type PlanProvider, type TotalBudget} from './plan-schema.js';
import {denominatorOf, resolveSelection, SelectionError} from './task-selection.js';
import {freezeSandbox} from './freeze-sandbox.js';
import {freezeResponses} from './freeze-responses.js';
import {writeJson} from '../../files/write-json.js';
import type {LoadedCartridge} from '../../cartridges/index.js';
import {unplayableWarning} from './scripted-coverage.js';
import {planPower, powerText} from './plan-power.js';
import type {Pilot} from './pilot.js';
import {UsageError} from '../input-error.js';
import type {PlanHarbor} from './plan-harbor.js';
import {defaultMemoryLimitBytes, defaultWorkspaceLimitBytes, taskLimitsOf, taskLimitsText} from './task-limits.js';

export interface FreezeOptions {
	provider: PlanProvider;
	/** Frozen limits on the provider for all tasks of an attempt together; none when absent. */
	limits?: ProviderLimits;
	/** `all` or a comma list of ids (case ids with a cartridge); ignored with a controller, which owns the task list. */
	selection: string;
	/** Trials per selected task (default 1); a controller plan cannot repeat. */
	repeat?: number;
	/** The step budget per task; null with a cartridge: its contract's (config.yaml max_steps). */
	maxSteps: number | null;
	/** The wall-clock limit per task; null with a cartridge: its contract's (config.yaml deadline_ms). */
	deadlineMs: number | null;
	/** Allocated bytes a task's workspace may hold; default `defaultWorkspaceLimitBytes`. */
	workspaceLimitBytes?: number;
	/** Memory each process of a task may hold; default `defaultMemoryLimitBytes`. */
	memoryLimitBytes?: number;
	policyPath: string | null;
	controllerPath: string | null;
	configPath: string | null;
	cwd?: string;
	/** What the experiment expects to show, frozen with it. */
	hypothesis?: string;
	/** The attempt's total budget; none when absent. */
	totalBudget?: TotalBudget;
	/** A response script the scripted provider plays the tasks from; its digest joins the provider's identity. */
	responsesPath?: string | null;
	/** Run in-process tasks (in a task runner), tool commands and host candidates under bubblewrap; refused here when it is unusable. */
	sandbox?: boolean;
	/** `--cartridge DIR`: its cases are the task source, its suite the scorer, its Harness the baseline. */
	cartridge?: LoadedCartridge;
	/** `--harbor-tasks DIR`: a Harbor task folder (or a folder of them) is the task source, its tests/ the scorer; implies the sandbox. */
	harborDir?: string;
	/** `--agent SPEC`: the baseline side's third-party agent, its installation verified and its identity frozen. */
	agentSpec?: string;
	/** Where a warning that does not stop the freeze goes (one line each); dropped when absent. */
	warn?: (line: string) => void;
	/** `--pilot REPORT`: a prior baseline report whose pass rate and spread size the plan's power. */
	pilot?: Pilot;
}

/** A cartridge plan's record of its cartridge, its identities added to the plan's; its readers are loaded for such a plan only. */
async function cartridgeOf(loaded: LoadedCartridge, identities: Identities): Promise<PlanCartridge> {
	const {cartridgeIdentities, planCartridgeOf} = await import('./cartridge-identity.js');
	const cartridge = planCartridgeOf(loaded);
	Object.assign(identities, await cartridgeIdentities(cartridge));
	return cartridge;
}

/** The per-task step and time budgets: those given, else the cartridge contract's, so a cartridge plan runs as `agent --cartridge` does. */
function taskBudgetsOf(options: FreezeOptions, harbor: PlanHarbor | undefined): {max_steps: number; timeout_ms: number} {
	const contract = options.cartridge?.config;
	const maxSteps = options.maxSteps ?? contract?.max_steps;
	// A Harbor plan's tasks each keep their own deadline; the plan's is the longest of them.
	const deadlineMs = options.deadlineMs ?? contract?.deadline_ms ?? (harbor === undefined ? undefined : Math.max(...harbor.tasks.map(task => task.agent_timeout_ms)));
	if (maxSteps === undefined || deadlineMs === undefined) throw new Error('a plan without a cartridge needs its step and time budgets');
	return {max_steps: maxSteps, timeout_ms: deadlineMs};
}

/** Resolves everything once, without any model call, and returns the sealed plan. */
export async function buildPlan(options: FreezeOptions): Promise<Plan> {
	// Refused first: a plan that cannot be sandboxed is not worth resolving.
	const sandbox = freezeSandbox((options.sandbox ?? false) || options.harborDir !== undefined);
	const configuration = await loadConfiguration(options.configPath, options.cwd);
	const policy = await loadExperimentPolicy(options.policyPath);
	let tasks: TaskDefinition[] | null = null;
	let controller: PlanController | null = null;
	let planTasks: Plan['tasks'];
	let taskIds: string[];
	const repeat = options.repeat ?? 1;
	let harbor: PlanHarbor | undefined;
	if (options.harborDir !== undefined) {
		if (options.controllerPath !== null || options.cartridge !== undefined) throw new SelectionError('a plan has one task source: Harbor tasks, a cartridge or a controller');
		// Loaded for a Harbor plan only: its task reader and its verifier's runner are no part of any other freeze.
		const {freezeHarbor, harborTasksOf} = await import('./freeze-harbor.js');
		harbor = freezeHarbor(options.harborDir, {selection: options.selection, agentDeadlineMs: options.deadlineMs, memoryBytes: options.memoryLimitBytes ?? null});
		planTasks = harborTasksOf(harbor);
		taskIds = denominatorOf(planTasks, repeat);
	} else if (options.cartridge !== undefined) {
		if (options.controllerPath !== null) throw new SelectionError('a plan has one task source: a cartridge or a controller, not both');
		planTasks = (await import('./cartridge-identity.js')).cartridgeTasks(options.cartridge, options.selection);
		taskIds = denominatorOf(planTasks, repeat);
	} else if (options.controllerPath === null) {
		tasks = resolveSelection(options.selection);
		taskIds = denominatorOf(tasks, repeat);
		planTasks = tasks.map(task => ({id: task.id, title: task.title, tools: [...task.tools]}));
	} else {
		if (repeat !== 1) throw new SelectionError('a controller owns its schedule, so its plan cannot repeat tasks');
		// Loaded for a controller plan only: freezing one asks the controller's process for its tasks.
		const {freezeController} = await import('./freeze-controller.js');
		const frozen = await freezeController(options.controllerPath);
		const unplayable = unplayableWarning(options.provider, options.responsesPath ?? null, frozen.sourceTasks);
		if (unplayable !== null) options.warn?.(unplayable);
		controller = frozen.controller;
		taskIds = frozen.controller.schedule.order;
		planTasks = frozen.tasks;
	}
	// Refused before any identity is computed: a rule no result could meet is not worth freezing. A controller decides by its own accept.
	const power = controller === null ? planPower(policy.acceptance, planTasks.length, repeat, options.pilot) : undefined;
	if (options.pilot !== undefined && power === undefined) throw new UsageError('--pilot sizes the power of a rule with min_confidence, and this plan\'s rule has none (or a controller decides)');
	const tools = planTasks.flatMap(task => task.tools);
	const identities = await computeIdentities(tasks, tools, configuration, controller === null ? null : {identity_digest: controller.identity_digest, files: controller.identity.files});
	const cartridge = options.cartridge === undefined ? undefined : await cartridgeOf(options.cartridge, identities);
	if (harbor !== undefined) Object.assign(identities, await (await import('./freeze-harbor.js')).harborIdentities(harbor));
	return sealPlan({
		schema: planSchema,
		created_at: new Date().toISOString(),
		hlab_version: hlabVersion,
		task_ids: taskIds,
		repeat,
		tasks: planTasks,
		...identities,
		provider: await freezeResponses(options.provider, options.responsesPath ?? null, planTasks.map(task => task.id), options.warn ?? (() => {})),
		...(options.limits === undefined ? {} : {provider_limits: options.limits}),
		budgets: {
			...taskBudgetsOf(options, harbor),
			workspace_limit_bytes: options.workspaceLimitBytes ?? defaultWorkspaceLimitBytes,
			memory_limit_bytes: options.memoryLimitBytes ?? harborMemoryOf(harbor) ?? defaultMemoryLimitBytes,
		},
		policy: controller?.schedule.concurrency == null ? policy : {...policy, concurrency: controller.schedule.concurrency},
		controller,
		...(cartridge === undefined ? {} : {cartridge}),
		...(harbor === undefined ? {} : {harbor}),
		...(options.hypothesis === undefined ? {} : {hypothesis: options.hypothesis}),
		...(options.totalBudget === undefined ? {} : {total_budget: options.totalBudget}),
		...(sandbox === undefined ? {} : {sandbox}),
		// Loaded for an agent plan only: reading and verifying a spec loads every adapter.
		...(options.agentSpec === undefined ? {} : {agent: await (await import('./freeze-agent.js')).freezeAgent(options.agentSpec)}),
		...(power === undefined ? {} : {power}),
	});
}

/** A Harbor plan's memory limit: the largest the selected tasks ask for ([environment] memory_mb); null when none asks. */
function harborMemoryOf(harbor: PlanHarbor | undefined): number | null {
	const asked = (harbor?.tasks ?? []).flatMap(task => (task.memory_bytes === null ? [] : [task.memory_bytes]));
	return asked.length === 0 ? null : Math.max(...asked);
}

/** Writes the plan on disk before returning; an existing file is never overwritten (EEXIST). */
export async function writePlan(path: string, plan: Plan): Promise<void> {
	await writeJson(path, plan, {exclusive: true, durable: true});
}

/** The text printed after freezing: where the plan is, its denominator, provider, budgets, policy and scorer. */
export function frozenPlanSummary(path: string, plan: Plan): string {
	return [
		`plan ${path} frozen (${plan.plan_digest})`,
		...(plan.hypothesis === undefined ? [] : [`  hypothesis: ${plan.hypothesis}`]),
		plan.repeat === 1
			? `  tasks (${plan.task_ids.length}): ${plan.task_ids.join(', ')}`
			: `  tasks (${plan.task_ids.length}): ${plan.tasks.map(task => task.id).join(', ')}, each ${plan.repeat} times (entries <id>#1..#${plan.repeat})`,
		...(plan.provider.kind === 'scripted' && plan.provider.responses !== undefined ? [`  responses: ${plan.provider.responses.path} (${plan.provider.responses.digest})`] : []),
		`  provider ${plan.provider.kind}, model ${plan.provider.model}; ${plan.budgets.max_steps} steps, ${plan.budgets.timeout_ms} ms per task; concurrency ${plan.policy.concurrency}`,
		`  per task: ${taskLimitsText(taskLimitsOf(plan))}`,
		`  repetition: ${plan.repeat === 1 ? 'each task once' : `each task ${plan.repeat} times`}; total budget: ${budgetText(plan.total_budget)}`,
		...(plan.provider_limits === undefined ? [] : [`  provider limits (all tasks together): ${limitsText(plan.provider_limits)}`]),
		`  acceptance: ${JSON.stringify(plan.policy.acceptance)}`,
		...(plan.power === undefined ? [] : [`  ${powerText(plan.power)}`]),
		...(plan.cartridge === undefined ? [] : [`  cartridge ${plan.cartridge.name} (${plan.cartridge.dir}); baseline harness ${plan.cartridge.baseline.digest}`]),
		...(plan.harbor === undefined ? [] : [`  harbor tasks ${plan.harbor.dir}: the workspace at ${plan.harbor.workdir}, tests/ only for the verifier; per task: ${plan.harbor.tasks.map(task => `${task.id} ${task.agent_timeout_ms} ms${task.memory_bytes === null ? '' : `, memory ${Math.round(task.memory_bytes / 1024 ** 2)} MiB`}`).join('; ')}`]),
		`  scorer ${plan.scorer.kind} ${plan.scorer.digest}`,
		...(plan.sandbox === undefined ? [] : [`  sandbox: bubblewrap ${plan.sandbox.version} (in-process tasks in a sandboxed task runner, tool commands and host candidates; no evidence, plan or key in view)`]),
	].join('\n');
}

function limitsText(limits: ProviderLimits): string {
	const parts = Object.entries(limits).filter(([, value]) => value !== null).map(([name, value]) => `${name} ${value}`);
	return parts.join(', ');
}

function budgetText(budget: TotalBudget | undefined): string {
	if (budget === undefined) return 'none';
	const parts = [
		...(budget.max_total_tokens === null ? [] : [`${budget.max_total_tokens} tokens`]),
		...(budget.max_total_tasks === null ? [] : [`${budget.max_total_tasks} tasks`]),
	];
	return `${parts.join(', ')} (past it, no task is launched; the rest fail with reason budget)`;
}
