import {z} from 'zod';
import {TaskTemplate, templateProblems} from './task-template.js';
import {ToolParameters} from './tool-parameters.js';
import {describeIssues} from '../controller-protocol/describe-issues.js';

/** The file-format tag of a Harness; it is part of what the fingerprint digests. */
export const harnessSchemaVersion = 'harness-lab/harness@1';

/** A name the chat-completions API accepts for a function. */
const ToolName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64');

/** A tool as the harness defines it: what the model is told, and which implementation runs it (by a stable id). */
export const HarnessTool = z.object({
	name: ToolName,
	description: z.string().min(1),
	parameters: ToolParameters,
	/** `<provider>:<name>`, e.g. `builtin:read_file`; the engine that runs the harness must know it. */
	implementation: z.string().regex(/^[a-z][a-z0-9-]*:[A-Za-z0-9_.-]+$/, 'an implementation id such as builtin:read_file'),
}).strict();
export type HarnessTool = z.infer<typeof HarnessTool>;

/** What the engine sends besides the instructions: today every request carries the whole transcript. */
export const ContextPolicy = z.object({
	/** `full`: the whole conversation so far, except the records a plugin wrote (a policy's stop). */
	history: z.literal('full'),
}).strict();
export type ContextPolicy = z.infer<typeof ContextPolicy>;

/** When the engine stops on its own; a run's budget (a plan's) replaces them when it gives one. */
export const StoppingLimits = z.object({
	/** Model requests. */
	max_steps: z.number().int().positive(),
	/** Wall-clock deadline of one execution. */
	deadline_ms: z.number().int().positive(),
}).strict();
export type StoppingLimits = z.infer<typeof StoppingLimits>;

const HarnessShape = z.object({
	schema: z.literal(harnessSchemaVersion),
	/** A short name for people; the fingerprint, not the name, says whether two harnesses are the same. */
	name: z.string().min(1),
	instructions: z.object({
		/** The system message of every conversation. */
		system: z.string().min(1),
		/** Sent as a user message when the model answers with text only. */
		continue: z.string().min(1),
	}).strict(),
	task_template: TaskTemplate,
	tools: z.array(HarnessTool),
	/** The tools offered to the model, by name and in the order offered; a subset of `tools`. */
	enabled_tools: z.array(z.string()),
	context: ContextPolicy,
	limits: StoppingLimits,
}).strict();

/** Everything an agent is made of, as plain data that can be stored in a file and fingerprinted. */
export const Harness = HarnessShape.superRefine((harness, context) => {
	const problem = (path: (string | number)[], message: string): void => context.addIssue({code: 'custom', path, message});
	const names = harness.tools.map(tool => tool.name);
	names.forEach((name, index) => {
		if (names.indexOf(name) !== index) problem(['tools', index, 'name'], `tool ${name} is defined twice`);
	});
	harness.enabled_tools.forEach((name, index) => {
		if (!names.includes(name)) problem(['enabled_tools', index], `${name} is enabled but no tool of that name is defined`);
		else if (harness.enabled_tools.indexOf(name) !== index) problem(['enabled_tools', index], `${name} is enabled twice`);
	});
	for (const message of templateProblems(harness.task_template)) problem(['task_template'], message);
});
export type Harness = z.infer<typeof Harness>;

/** A value read as a Harness: the harness, or the reason it is not one, in one line. */
export function parseHarness(value: unknown): {ok: true; harness: Harness} | {ok: false; problem: string} {
	const parsed = Harness.safeParse(value);
	if (parsed.success) return {ok: true, harness: parsed.data};
	return {ok: false, problem: describeIssues(parsed.error, {root: 'harness'})};
}

/** The reason a value is not a Harness, or null when it is one. */
export function harnessProblem(value: unknown): string | null {
	const parsed = parseHarness(value);
	return parsed.ok ? null : parsed.problem;
}
