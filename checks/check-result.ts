import {z} from 'zod';

export const checkResultSchema = 'harness-lab/check-result@1';

/** One scenario or step of a self-check: its name, what it does, its own fields, its verdict and the problems behind it. */
export function checkItem<Shape extends z.ZodRawShape>(shape: Shape) {
	return z.object({name: z.string(), description: z.string(), ...shape, passed: z.boolean(), problems: z.array(z.string())});
}

/** The `result.json` every self-check writes: the schema, which check, its label and overall verdict, then its own fields. */
export function checkResult<const Check extends string, Shape extends z.ZodRawShape>(check: Check, shape: Shape) {
	return z.object({schema: z.literal(checkResultSchema), check: z.literal(check), label: z.string(), passed: z.boolean(), ...shape});
}
