import {z} from 'zod';

/** One figure of `npm run bench`: always a ratio against a floor measured in the same run. */
export const BenchResult = z.object({
	name: z.string(),
	/** What the figure is, in words, for the summary table. */
	figure: z.string(),
	/** The measured value divided by the floor; lower is better. */
	ratio: z.number(),
	ratio_spread: z.object({min: z.number(), max: z.number()}),
	/** The absolute figures behind the ratio, with their units in the key names. */
	measured: z.record(z.string(), z.number()),
	floor: z.record(z.string(), z.number()),
	floor_description: z.string(),
	repetitions: z.number().int(),
	/** What each side did per case, when the two sides do different amounts of work. */
	notes: z.string().nullable(),
	/** A target the issue sets, and whether this run met it. */
	target: z.object({description: z.string(), met: z.boolean()}).nullable(),
});
export type BenchResult = z.infer<typeof BenchResult>;

export type BenchSize = 'tiny' | 'full';

export interface Bench {
	name: string;
	run(size: BenchSize): Promise<BenchResult>;
}
