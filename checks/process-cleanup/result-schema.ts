import {z} from 'zod';
import {Containment, KilledProcess, ProcessFailure} from '../../process/index.js';
import {checkItem, checkResult} from '../check-result.js';

export const ScenarioResult = checkItem({
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
	/** Whether the backend used can end this tree at all; a scenario it cannot catch fails with that said. */
	within_backend: z.boolean(),
});
export type ScenarioResult = z.infer<typeof ScenarioResult>;

export const CleanupCheckResult = checkResult('process-cleanup', {
	/** The containment backend every scenario ran under. */
	containment: Containment,
	sweep_disabled: z.boolean(),
	scenarios: z.array(ScenarioResult),
});
export type CleanupCheckResult = z.infer<typeof CleanupCheckResult>;
