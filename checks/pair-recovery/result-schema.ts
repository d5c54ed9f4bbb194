import {z} from 'zod';

export const RecoveryScenarioResult = z.object({
	name: z.string(),
	description: z.string(),
	pair_exit_code: z.number().int().nullable(),
	pair_signal: z.string().nullable(),
	pair_status: z.string().nullable(),
	/** Per side, how many of the denominator's tasks pair.json holds as passed, failed and missing. */
	tasks: z.record(z.string(), z.object({passed: z.number().int(), failed: z.number().int(), missing: z.number().int()})),
	denominator: z.number().int(),
	survivors: z.array(z.number().int()),
	passed: z.boolean(),
	problems: z.array(z.string()),
});
export type RecoveryScenarioResult = z.infer<typeof RecoveryScenarioResult>;

export const PairRecoveryCheckResult = z.object({
	schema: z.literal('harness-lab/check-result@1'),
	check: z.literal('pair-recovery'),
	label: z.string(),
	ledger_sync_disabled: z.boolean(),
	passed: z.boolean(),
	scenarios: z.array(RecoveryScenarioResult),
});
export type PairRecoveryCheckResult = z.infer<typeof PairRecoveryCheckResult>;
