import {z} from 'zod';
import {seedPathProblems} from './seed-paths.js';

/*
 * The files of a cartridge folder, one schema each. A cartridge is data: these schemas are the format.
 *
 *   cartridge.json            Manifest
 *   config.yaml               ContractConfig (part of the Harness, so of its fingerprint)
 *   runtime.yaml              RuntimeConfig (host policy: recorded and digested, never part of the contract)
 *   prompts/system.md         the system instructions
 *   resources/<name>.ts       build(runtime) -> a value tools may require
 *   tools/<name>/tool.yaml    ToolSpec; tools/<name>/execute.ts exports execute(context, args)
 *   evals/cases/<id>.json     CaseFile
 *   evals/collect_*.ts        collectors; evals/eval_*.ts graders
 */

/** The cartridge format this loader reads. */
export const cartridgeSchemaVersion = 2;

const Name = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64');

export const Manifest = z.object({
	name: Name,
	schema_version: z.literal(cartridgeSchemaVersion, {error: `schema_version must be ${cartridgeSchemaVersion}`}),
	description: z.string().optional(),
}).strict();
export type Manifest = z.infer<typeof Manifest>;

/** The contract: what the loop must do whichever host runs it. */
export const ContractConfig = z.object({
	max_steps: z.number().int().positive(),
	/** The tool that ends the loop; the engine provides it (arguments: a summary). */
	done_tool: Name.default('done'),
	deadline_ms: z.number().int().positive().default(120_000),
	/** The tools offered, in order; all of them (by name, the done tool last) when absent. */
	tools: z.array(Name).optional(),
	/** Sent when the model answers with text only. */
	continue_prompt: z.string().min(1).optional(),
}).strict();
export type ContractConfig = z.infer<typeof ContractConfig>;

/** Host and runtime policy (provider and context behaviour): a host may differ here without being another contract. */
export const RuntimeConfig = z.object({
	use_native_tools: z.boolean().optional(),
}).catchall(z.json());
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;

/** A JSON Schema of an object (what the model is shown), or the short form: a map of property schemas, all required. */
const Parameters = z.record(z.string(), z.json());

export const ToolSpec = z.object({
	name: Name,
	description: z.string().min(1),
	parameters: Parameters.default({}),
	/** Resources (resources/<name>.ts) the tool's execute receives in `context.resources`. */
	requires: z.array(Name).default([]),
}).strict();
export type ToolSpec = z.infer<typeof ToolSpec>;

/** Files to seed by their paths inside the workspace; each refused key is its own issue, with its reason. */
const SeedFiles = z.record(z.string(), z.string()).superRefine((files, context) => {
	for (const problem of seedPathProblems(Object.keys(files))) context.addIssue({code: 'custom', message: problem});
});

export const CaseFile = z.object({
	id: Name,
	task: z.object({
		/** The only thing the agent sees. */
		goal: z.string().min(1),
		/** Files seeded into the case's fresh workspace; never sent to the model. */
		files: SeedFiles.optional(),
	}).strict(),
	/** For graders only: stored apart (expected.json), never sent to the model. */
	expected: z.json().optional(),
	marks: z.array(z.string().min(1)).default([]),
}).strict();
export type CaseFile = z.infer<typeof CaseFile>;

/** The one-line problems of a failed parse, each prefixed with the file it concerns. */
export function issuesOf(file: string, error: z.ZodError): string[] {
	return error.issues.map(issue => `${file}: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
}
