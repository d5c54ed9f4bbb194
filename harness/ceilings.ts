import {z} from 'zod';
import type {Harness} from './harness-schema.js';

/** The largest harness a search may produce: limits on what a child may grow to, all of them required. */
export const HarnessCeilings = z.object({
	max_steps: z.number().int().positive(),
	deadline_ms: z.number().int().positive(),
	/** Characters of the system instructions. */
	system_chars: z.number().int().positive(),
	/** Characters of any one tool description. */
	tool_description_chars: z.number().int().positive(),
	/** Characters of the task template's text. */
	template_chars: z.number().int().positive(),
}).strict();
export type HarnessCeilings = z.infer<typeof HarnessCeilings>;

/** Where a harness exceeds the ceilings, one line each; empty when it does not. */
export function ceilingProblems(harness: Harness, ceilings: HarnessCeilings): string[] {
	const over = (what: string, value: number, limit: number): string[] => (value > limit ? [`${what} is ${value}, above the ceiling of ${limit}`] : []);
	return [
		...over('max_steps', harness.limits.max_steps, ceilings.max_steps),
		...over('deadline_ms', harness.limits.deadline_ms, ceilings.deadline_ms),
		...over('the system instructions\' length', harness.instructions.system.length, ceilings.system_chars),
		...over('the task template\'s length', harness.task_template.text.length, ceilings.template_chars),
		...harness.tools.flatMap(tool => over(`tool ${tool.name}'s description length`, tool.description.length, ceilings.tool_description_chars)),
	];
}
