import {z} from 'zod';
import {AdapterId} from './adapter-id.js';
import {ExactVersion} from './exact-version.js';
import {PackageName} from './package-name.js';

export const agentSpecSchema = 'harness-lab/agent@1';

/** The npm package an agent is, at one release. */
export const AgentPackage = z.strictObject({name: PackageName, version: ExactVersion});
export type AgentPackage = z.infer<typeof AgentPackage>;

const relativePath = z
	.string()
	.min(1)
	.refine(path => !path.startsWith('/') && !path.split('/').includes('..'), {error: 'a path inside the spec\'s folder (relative, no ..)'});

/** What the adapter turns into the agent's own configuration; every part is optional and nothing else is accepted. */
export const AgentConfig = z.strictObject({
	/** A file beside the spec whose text the adapter gives the agent as its system prompt. */
	system_prompt_file: relativePath.optional(),
	/** Tool permissions, by the agent's own tool names. */
	tools: z.strictObject({allow: z.array(z.string().min(1)).optional(), deny: z.array(z.string().min(1)).optional()}).optional(),
	/** Budgets the agent enforces on itself (the supervisor's deadlines hold regardless). */
	budget: z.strictObject({max_turns: z.int().positive().optional()}).optional(),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

const variableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {error: issue => `${JSON.stringify(issue.input)} is not an environment variable name`});
// Long options only, `--name` or `--name=value`: a short cluster such as -xm could hide a reserved flag.
const flag = z.string().regex(/^--[A-Za-z0-9][\w-]*(=.*)?$/, {error: issue => `${JSON.stringify(issue.input)} is not a long option (--name or --name=value)`});

const common = {
	schema: z.literal(agentSpecSchema, {error: `must be "${agentSpecSchema}"`}),
	/** Extra argv for the agent, beyond what the adapter sets itself. */
	flags: z.array(flag).default([]),
	config: AgentConfig.default({}),
	/** The only variables of the user's environment that reach the agent, by name. */
	env: z.array(variableName).default([]),
};

const packaged = <Id extends Exclude<AdapterId, 'command'>>(adapter: Id) =>
	z.strictObject({
		...common,
		adapter: z.literal(adapter),
		package: AgentPackage,
		/** The model alias the adapter pins for the agent. */
		model: z.string().min(1, {error: 'missing: the model alias the adapter pins'}),
	});

/** Any executable: a script beside the spec, or a `bin` of a pinned package. */
const CommandSpec = z.strictObject({
	...common,
	adapter: z.literal('command'),
	package: AgentPackage.optional(),
	model: z.string().min(1).nullable().default(null),
	/** With `package`: one of its `bin` names. Without: a path to an executable relative to the spec's folder. */
	executable: z.string().min(1),
	/** How the task's text reaches the command: as its last argument, or on its standard input. */
	task_input: z.enum(['argument', 'stdin']),
});

/** An agent spec (`agent.json` or YAML): which agent CLI, at which exact release, with what it may see. */
export const AgentSpec = z.discriminatedUnion('adapter', [packaged('qwen-code'), packaged('opencode'), packaged('pi'), packaged('codex'), CommandSpec]);
export type AgentSpec = z.infer<typeof AgentSpec>;
