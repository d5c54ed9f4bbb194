import {z} from 'zod';

export const ControllerCheckStep = z.object({
	name: z.string(),
	description: z.string(),
	passed: z.boolean(),
	problems: z.array(z.string()),
	/** Files the step produced or inspected, relative to the output folder. */
	evidence: z.array(z.string()),
});
export type ControllerCheckStep = z.infer<typeof ControllerCheckStep>;

export const ControllerCheckResult = z.object({
	schema: z.literal('harness-lab/check-result@1'),
	check: z.literal('controller'),
	label: z.string(),
	hlab: z.string(),
	plan_digest: z.string().nullable(),
	passed: z.boolean(),
	steps: z.array(ControllerCheckStep),
});
export type ControllerCheckResult = z.infer<typeof ControllerCheckResult>;
