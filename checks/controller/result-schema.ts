import {z} from 'zod';
import {checkItem, checkResult} from '../check-result.js';

export const ControllerCheckStep = checkItem({
	/** Files the step produced or inspected, relative to the output folder. */
	evidence: z.array(z.string()),
});
export type ControllerCheckStep = z.infer<typeof ControllerCheckStep>;

export const ControllerCheckResult = checkResult('controller', {
	hlab: z.string(),
	plan_digest: z.string().nullable(),
	steps: z.array(ControllerCheckStep),
});
export type ControllerCheckResult = z.infer<typeof ControllerCheckResult>;
