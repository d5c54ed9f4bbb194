import {z} from 'zod';

/*
 * ATIF, the Agent Trajectory Interchange Format (Harbor RFC 0001), at the version harness-lab writes: v1.7.
 * Written from the RFC's field list; every object is strict, as Harbor's own models forbid unknown fields, and
 * implementation data goes in the `extra` objects the format provides for it. docs/atif.md says what fills each field.
 */

export const atifVersion = 'ATIF-v1.7';

const Count = z.int().nonnegative();
/** A count the format allows to be absent; harness-lab writes null where it is unknown, never 0. */
const KnownCount = Count.nullable().optional();
const Extra = z.record(z.string(), z.unknown());
const Timestamp = z.iso.datetime({offset: true});

/** A part of a multimodal message or result (since v1.6). */
const ContentPart = z.strictObject({
	type: z.enum(['text', 'image']),
	text: z.string().optional(),
	source: z.strictObject({media_type: z.string(), path: z.string()}).optional(),
});
const Content = z.union([z.string(), z.array(ContentPart)]);

export const AtifToolDefinition = z.record(z.string(), z.unknown());

export const AtifAgent = z.strictObject({
	name: z.string().min(1),
	version: z.string().min(1),
	model_name: z.string().nullable().optional(),
	tool_definitions: z.array(AtifToolDefinition).nullable().optional(),
	extra: Extra.nullable().optional(),
});

export const AtifToolCall = z.strictObject({
	tool_call_id: z.string().min(1),
	function_name: z.string().min(1),
	arguments: z.record(z.string(), z.unknown()),
});

const SubagentTrajectoryRef = z.strictObject({
	session_id: z.string(),
	trajectory_path: z.string().nullable().optional(),
	extra: Extra.nullable().optional(),
});

export const AtifObservationResult = z.strictObject({
	/** The `tool_call_id` of the step's call this answers; absent for a result of no call. */
	source_call_id: z.string().nullable().optional(),
	content: Content.nullable().optional(),
	subagent_trajectory_ref: z.array(SubagentTrajectoryRef).nullable().optional(),
});

export const AtifObservation = z.strictObject({results: z.array(AtifObservationResult)});

/** One model call's numbers; prompt tokens include the cached ones. */
export const AtifMetrics = z.strictObject({
	prompt_tokens: KnownCount,
	completion_tokens: KnownCount,
	cached_tokens: KnownCount,
	cost_usd: z.number().nonnegative().nullable().optional(),
	prompt_token_ids: z.array(z.int()).nullable().optional(),
	completion_token_ids: z.array(z.int()).nullable().optional(),
	logprobs: z.array(z.number()).nullable().optional(),
	extra: Extra.nullable().optional(),
});

export const AtifStep = z.strictObject({
	/** 1, 2, 3, ... in order. */
	step_id: z.int().positive(),
	timestamp: Timestamp.nullable().optional(),
	source: z.enum(['system', 'user', 'agent']),
	model_name: z.string().nullable().optional(),
	reasoning_effort: z.union([z.string(), z.number()]).nullable().optional(),
	message: Content,
	reasoning_content: z.string().nullable().optional(),
	tool_calls: z.array(AtifToolCall).nullable().optional(),
	observation: AtifObservation.nullable().optional(),
	metrics: AtifMetrics.nullable().optional(),
	llm_call_count: Count.nullable().optional(),
	is_copied_context: z.boolean().nullable().optional(),
	extra: Extra.nullable().optional(),
}).superRefine(checkStep);

export const AtifFinalMetrics = z.strictObject({
	total_prompt_tokens: KnownCount,
	total_completion_tokens: KnownCount,
	total_cached_tokens: KnownCount,
	total_cost_usd: z.number().nonnegative().nullable().optional(),
	total_steps: Count.nullable().optional(),
	extra: Extra.nullable().optional(),
});

const TrajectoryFields = {
	schema_version: z.literal(atifVersion),
	session_id: z.string().min(1),
	trajectory_id: z.string().nullable().optional(),
	agent: AtifAgent,
	steps: z.array(AtifStep).min(1),
	notes: z.string().nullable().optional(),
	final_metrics: AtifFinalMetrics.nullable().optional(),
	continued_trajectory_ref: z.string().nullable().optional(),
	extra: Extra.nullable().optional(),
};

/** A trajectory; `subagent_trajectories` holds delegated agents' own trajectories, inline (since v1.7). */
export const AtifTrajectory = z.strictObject({
	...TrajectoryFields,
	subagent_trajectories: z.array(z.strictObject(TrajectoryFields)).nullable().optional(),
}).superRefine(checkStepOrder);
export type AtifTrajectory = z.infer<typeof AtifTrajectory>;
export type AtifStep = z.infer<typeof AtifStep>;
export type AtifToolCall = z.infer<typeof AtifToolCall>;
export type AtifMetrics = z.infer<typeof AtifMetrics>;

const agentOnly = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics', 'llm_call_count'] as const;

/** The model's fields belong to agent steps alone, and a result answers a call of its own step. */
function checkStep(step: z.infer<typeof AtifStep>, context: z.RefinementCtx): void {
	if (step.source !== 'agent') {
		for (const field of agentOnly) {
			if (step[field] != null) context.addIssue({code: 'custom', path: [field], message: `${field} is for agent steps only, not a ${step.source} step`});
		}
	}
	const calls = new Set((step.tool_calls ?? []).map(call => call.tool_call_id));
	for (const [index, result] of (step.observation?.results ?? []).entries()) {
		if (result.source_call_id != null && !calls.has(result.source_call_id)) {
			context.addIssue({code: 'custom', path: ['observation', 'results', index, 'source_call_id'], message: `${result.source_call_id} is no tool_call_id of this step`});
		}
	}
}

function checkStepOrder(trajectory: {steps: Array<{step_id: number}>}, context: z.RefinementCtx): void {
	for (const [index, step] of trajectory.steps.entries()) {
		if (step.step_id !== index + 1) context.addIssue({code: 'custom', path: ['steps', index, 'step_id'], message: `step ${index + 1} has step_id ${step.step_id}: ids run 1, 2, 3, ... in order`});
	}
}
