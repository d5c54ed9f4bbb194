import {z} from 'zod';

/*
 * What the host sends an evaluation process on stdin and reads from its stdout (one JSON value each way).
 * Collectors and graders run there, never in the agent's process: `list` names what a module exports,
 * `collect` and `grade` run every collector or grader of one module.
 */

const Module = z.object({path: z.string(), code: z.string()});

export const FinalState = z.object({
	completed: z.boolean(),
	status: z.enum(['done', 'policy_stop', 'unfinished', 'failed']),
	reason: z.string().nullable(),
	steps: z.number().int().nonnegative(),
	final_text: z.string().nullable(),
});
export type FinalState = z.infer<typeof FinalState>;

export const Runtime = z.object({project_root: z.string(), case_id: z.string()});

export const GraderInput = z.object({
	case_id: z.string(),
	task: z.object({goal: z.string()}),
	expected: z.json().nullable(),
	marks: z.array(z.string()),
	facts: z.record(z.string(), z.json()),
	completed: z.boolean(),
	state: FinalState,
});
export type GraderInput = z.infer<typeof GraderInput>;

/** Where graders that ask a model send their question (`--judge`); the key stays in the named environment variable. */
export const JudgeEndpoint = z.object({base_url: z.string(), model: z.string(), api_key_env: z.string().nullable()});
export type JudgeEndpoint = z.infer<typeof JudgeEndpoint>;

export const EvaluationJob = z.discriminatedUnion('mode', [
	z.object({mode: z.literal('list'), modules: z.array(Module.extend({kind: z.enum(['collector', 'grader'])}))}),
	z.object({mode: z.literal('collect'), module: Module, input: z.object({state: FinalState, runtime: Runtime})}),
	z.object({mode: z.literal('grade'), module: Module, context: GraderInput, threshold: z.number().nullable(), judge: JudgeEndpoint.nullable()}),
]);
export type EvaluationJob = z.infer<typeof EvaluationJob>;

export const ListedExport = z.object({name: z.string(), marks: z.array(z.string()), asks_model: z.boolean().default(false)});
export type ListedExport = z.infer<typeof ListedExport>;

export const ListAnswer = z.object({
	modules: z.array(z.object({path: z.string(), exports: z.array(ListedExport), problems: z.array(z.string())})),
});

/** One collector's result: its facts, or an explicit error (a throw, a result that is not a JSON object). */
export const CollectorResult = z.object({
	module: z.string(),
	name: z.string(),
	status: z.enum(['ok', 'error', 'malformed']),
	facts: z.record(z.string(), z.json()).nullable(),
	error: z.string().nullable(),
});
export type CollectorResult = z.infer<typeof CollectorResult>;

/** One grader's result. `malformed`: it answered something that is no grader answer. */
export const GraderResult = z.object({
	module: z.string(),
	name: z.string(),
	marks: z.array(z.string()),
	status: z.enum(['passed', 'failed', 'skipped', 'error', 'malformed']),
	/** In [0, 1]; null when the grader did not judge. */
	score: z.number().nullable(),
	detail: z.string().nullable(),
	/** The judge model's requests and answers, when the grader asked one. */
	judge_exchanges: z.array(z.object({request: z.json(), status: z.number().int().nullable(), response: z.json().nullable(), error: z.string().nullable()})).default([]),
});
export type GraderResult = z.infer<typeof GraderResult>;

export const CollectAnswer = z.object({results: z.array(CollectorResult)});
export const GradeAnswer = z.object({results: z.array(GraderResult)});
