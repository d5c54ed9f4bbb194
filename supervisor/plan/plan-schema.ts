import {z} from 'zod';
import {HarnessFingerprint} from '../../harness/index.js';
import {ProviderLimits} from '../../engine/provider/provider-limits.js';
import {ExperimentPolicy} from './experiment-policy.js';
import {PackageFingerprint} from './fingerprints.js';
import {Configuration} from './configuration.js';
import {PlanSandbox} from './freeze-sandbox.js';
import {AgentIdentity} from '../../agents/agent-identity.js';
import {PlanPower} from './plan-power.js';
import {PlanHarbor} from './plan-harbor.js';

export const planSchema = 'harness-lab/plan@1';

const FileDigests = z.record(z.string(), z.string().nullable());

/** The model connection, as frozen: no secret, only the name of the variable that holds the key. */
export const PlanProvider = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('scripted'),
		model: z.string(),
		/** The response script it plays (`--responses`), named by its digest; absent: the built-in tasks' reference behaviour. */
		responses: z.object({path: z.string(), digest: z.string()}).optional(),
	}),
	z.object({
		kind: z.literal('openai-compatible'),
		model: z.string(),
		base_url: z.string(),
		api_key_env: z.string().nullable(),
		reasoning_effort: z.string().nullable(),
	}),
]);
export type PlanProvider = z.infer<typeof PlanProvider>;

/** The digests of a set of files (relative to the installation when inside it) and one digest over them. */
export const SourceSet = z.object({digest: z.string(), files: FileDigests});
export type SourceSet = z.infer<typeof SourceSet>;

export const PlanTask = z.object({
	id: z.string(),
	title: z.string(),
	/** External tools the task's commands or grader need; their versions are frozen. */
	tools: z.array(z.string()),
});

export const PlanController = z.object({
	identity: z.object({command: z.array(z.string()).min(1), files: z.record(z.string(), z.string())}).loose(),
	identity_digest: z.string(),
	/** The controller's own task list (its `tasks` answer), as returned at freeze. */
	tasks: z.unknown(),
	/** The frozen schedule: the order and concurrency the controller chose. */
	schedule: z.object({order: z.array(z.string()), concurrency: z.number().int().min(1).max(256).nullable()}),
});
export type PlanController = z.infer<typeof PlanController>;

/**
 * A cartridge as a plan's task source: its cases are the denominator, its suite (cases, expected data, collectors,
 * graders with their marks) is the scorer, and its Harness is the baseline. A candidate cartridge may change only the harness.
 */
export const PlanCartridge = z.object({
	name: z.string(),
	/** The baseline cartridge's folder, as frozen. */
	dir: z.string(),
	/** The baseline harness: the frozen cartridge's Harness fingerprint. */
	baseline: HarnessFingerprint,
	/** Cases, expected data, collectors and graders together, as the cartridge loader digests them. */
	suite_digest: z.string(),
	/** The SDK its TypeScript files compile against. */
	sdk_digest: z.string(),
	cases: z.array(z.object({id: z.string(), path: z.string(), digest: z.string(), expected: z.string()})),
	collectors: z.array(z.object({path: z.string(), source: z.string()})),
	graders: z.array(z.object({path: z.string(), source: z.string(), exports: z.array(z.object({name: z.string(), marks: z.array(z.string())}))})),
});
export type PlanCartridge = z.infer<typeof PlanCartridge>;
/** What one attempt may spend in all; past it no more tasks are launched. Null: no limit on that measure. */
export const TotalBudget = z.object({
	max_total_tokens: z.number().int().positive().nullable(),
	max_total_tasks: z.number().int().positive().nullable(),
}).refine(budget => budget.max_total_tokens !== null || budget.max_total_tasks !== null, 'a total budget limits tokens, tasks, or both');
export type TotalBudget = z.infer<typeof TotalBudget>;

export const Plan = z.object({
	schema: z.literal(planSchema),
	digest_scheme: z.string(),
	created_at: z.string(),
	hlab_version: z.string(),
	/** The fixed, ordered denominator: task ids, or `<id>#<k>` entries when each task runs `repeat` times. */
	task_ids: z.array(z.string()).min(1),
	/** Trials per task (1 with a controller, which owns the schedule). */
	repeat: z.number().int().min(1),
	tasks: z.array(PlanTask),
	/** The selected tasks' own folders: definitions, graders, reference behaviour, setup and expected data. */
	task_sources: SourceSet,
	/** Everything that grades and decides: the tasks' files and the module graph of the graders and deciding code, or the pinned controller. */
	scorer: z.object({kind: z.enum(['builtin', 'controller', 'cartridge', 'harbor']), digest: z.string(), files: FileDigests}),
	provider: PlanProvider,
	/** How hard the attempt may drive the provider, all tasks together (absent: no limits). */
	provider_limits: ProviderLimits.optional(),
	configuration: z.object({path: z.string().nullable(), digest: z.string(), value: Configuration}),
	composition: z.object({modules: z.array(z.string()), packages: z.array(PackageFingerprint), digest: z.string()}),
	tool_versions: z.record(z.string(), z.string().nullable()),
	budgets: z.object({
		max_steps: z.number().int().positive(),
		timeout_ms: z.number().int().positive(),
		/** Allocated bytes (st_blocks) a task's workspace may hold; absent in plans frozen before there was one (the default applies). */
		workspace_limit_bytes: z.number().int().positive().optional(),
		/** Private writable memory each process of a task may hold (cgroup memory.max or RLIMIT_DATA); absent as above. */
		memory_limit_bytes: z.number().int().positive().optional(),
	}),
	policy: ExperimentPolicy,
	controller: PlanController.nullable(),
	/** The cartridge whose cases this plan runs; absent (not null) for other sources, so older plans keep their digests. */
	cartridge: PlanCartridge.optional(),
	/** The Harbor tasks this plan runs (`--harbor-tasks`); absent (not null) for other sources, so older plans keep their digests. */
	harbor: PlanHarbor.optional(),
	/** What the experiment expects to show, written before running; absent (not null) when none was given, so older plans keep their digests. */
	hypothesis: z.string().min(1).optional(),
	/** The whole attempt's budget (`--max-total-tokens`, `--max-total-tasks`); absent when none was given, so older plans keep their digests. */
	total_budget: TotalBudget.optional(),
	/** Present when frozen with `--sandbox`; absent otherwise, so plans frozen without it keep their digest. */
	sandbox: PlanSandbox.optional(),
	/** The baseline's third-party agent (`--agent` at freeze); absent otherwise, so plans frozen without one keep their digest. */
	agent: z.object({
		/** The spec's absolute path, from which the baseline side runs it. */
		spec: z.string(),
		/** Its identity when frozen: the baseline side's agent must still be this one. */
		identity: AgentIdentity,
	}).optional(),
	/** What the plan's shape can detect on pass/fail at its `min_confidence` (80% power); absent without one, so older plans keep their digests. */
	power: PlanPower.optional(),
	/** sha256 over the canonical JSON of every other field. */
	plan_digest: z.string(),
});
export type Plan = z.infer<typeof Plan>;
