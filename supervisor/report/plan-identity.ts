import {z} from 'zod';

/** What the page says about the plan: its digests, budgets, policy, provider and hypothesis, read from whatever plan version wrote them. */
export const PlanIdentity = z.object({
	plan_digest: z.string().nullable(),
	created_at: z.string().nullable(),
	hlab_version: z.string().nullable(),
	/** Every digest the plan records, by its path in the plan (`scorer.digest`, `task_sources.digest`, ...). */
	digests: z.array(z.object({name: z.string(), digest: z.string()})),
	provider: z.unknown(),
	budgets: z.unknown(),
	policy: z.unknown(),
	repeat: z.number().nullable(),
	hypothesis: z.unknown(),
	task_count: z.number().nullable(),
	/** The power the plan was frozen with (`power` in plans whose rule sets min_confidence); null otherwise. */
	power: z.unknown().default(null),
});
export type PlanIdentity = z.infer<typeof PlanIdentity>;

// Read loosely: other plan fields may come and go; the page shows these where recorded.
const PlanFields = z.object({
	plan_digest: z.string().optional(),
	created_at: z.string().optional(),
	hlab_version: z.string().optional(),
	provider: z.unknown().optional(),
	budgets: z.unknown().optional(),
	policy: z.unknown().optional(),
	repeat: z.number().optional(),
	hypothesis: z.unknown().optional(),
	task_ids: z.array(z.string()).optional(),
	power: z.unknown().optional(),
}).loose();

/** Null when the value is not a plan-like object at all. */
export function planIdentity(plan: unknown): PlanIdentity | null {
	const parsed = PlanFields.safeParse(plan);
	if (!parsed.success) return null;
	const fields = parsed.data;
	return {
		plan_digest: fields.plan_digest ?? null,
		created_at: fields.created_at ?? null,
		hlab_version: fields.hlab_version ?? null,
		digests: digestsIn(plan, '').filter(entry => entry.name !== 'plan_digest'),
		provider: fields.provider ?? null,
		budgets: fields.budgets ?? null,
		policy: fields.policy ?? null,
		repeat: fields.repeat ?? null,
		hypothesis: fields.hypothesis ?? null,
		task_count: fields.task_ids?.length ?? null,
		power: fields.power ?? null,
	};
}

// Per-file digest maps (`files`) would bury the identities; their one digest over them is what identifies.
const skipped = new Set(['files', 'packages', 'value', 'tasks']);

function digestsIn(value: unknown, path: string): Array<{name: string; digest: string}> {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
	return Object.entries(value).flatMap(([key, inner]) => {
		const name = path === '' ? key : `${path}.${key}`;
		if (typeof inner === 'string' && /digest/.test(key)) return [{name, digest: inner}];
		return skipped.has(key) ? [] : digestsIn(inner, name);
	});
}
