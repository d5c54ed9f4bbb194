import {z} from 'zod';
import {KilledProcess, ProcessFailure} from '../../supervisor/process/index.js';

export const ScenarioResult = z.object({
	name: z.string(),
	description: z.string(),
	command: z.array(z.string()),
	/** Pids every process of the tree wrote down itself when it started. */
	started: z.array(z.number().int()),
	killed: z.array(KilledProcess),
	failure: ProcessFailure.nullable(),
	exit_code: z.number().int().nullable(),
	wall_ms: z.number(),
	cleanup_ms: z.number(),
	/** Measured by the check around the whole supervised run. */
	elapsed_ms: z.number(),
	/** Found by scanning /proc after the supervisor returned; killed by the check afterwards. */
	survivors: z.array(z.number().int()),
	passed: z.boolean(),
	problems: z.array(z.string()),
});
export type ScenarioResult = z.infer<typeof ScenarioResult>;

export const CleanupCheckResult = z.object({
	schema: z.literal('harness-lab/check-result@1'),
	check: z.literal('process-cleanup'),
	label: z.string(),
	sweep_disabled: z.boolean(),
	passed: z.boolean(),
	scenarios: z.array(ScenarioResult),
});
export type CleanupCheckResult = z.infer<typeof CleanupCheckResult>;
