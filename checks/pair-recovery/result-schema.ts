import {z} from 'zod';
import {checkItem, checkResult} from '../check-result.js';

export const RecoveryScenarioResult = checkItem({
	pair_exit_code: z.number().int().nullable(),
	pair_signal: z.string().nullable(),
	pair_status: z.string().nullable(),
	/** Per side, how many of the denominator's tasks pair.json holds as passed, failed and missing. */
	tasks: z.record(z.string(), z.object({passed: z.number().int(), failed: z.number().int(), missing: z.number().int()})),
	denominator: z.number().int(),
	survivors: z.array(z.number().int()),
});
export type RecoveryScenarioResult = z.infer<typeof RecoveryScenarioResult>;

export const PairRecoveryCheckResult = checkResult('pair-recovery', {
	ledger_sync_disabled: z.boolean(),
	scenarios: z.array(RecoveryScenarioResult),
});
export type PairRecoveryCheckResult = z.infer<typeof PairRecoveryCheckResult>;
