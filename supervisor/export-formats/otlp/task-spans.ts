import {context, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer} from '@opentelemetry/api';
import {
	ATTR_GEN_AI_AGENT_ID, ATTR_GEN_AI_AGENT_NAME, ATTR_GEN_AI_AGENT_VERSION, ATTR_GEN_AI_CONVERSATION_ID, ATTR_GEN_AI_EVALUATION_EXPLANATION,
	ATTR_GEN_AI_EVALUATION_NAME, ATTR_GEN_AI_EVALUATION_SCORE_LABEL, ATTR_GEN_AI_EVALUATION_SCORE_VALUE, ATTR_GEN_AI_INPUT_MESSAGES,
	ATTR_GEN_AI_OPERATION_NAME, ATTR_GEN_AI_OUTPUT_MESSAGES, ATTR_GEN_AI_REQUEST_MODEL, ATTR_GEN_AI_RESPONSE_MODEL, ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
	ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, ATTR_GEN_AI_TOOL_CALL_ID, ATTR_GEN_AI_TOOL_CALL_RESULT, ATTR_GEN_AI_TOOL_NAME, ATTR_GEN_AI_TOOL_TYPE,
	ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, ATTR_GEN_AI_USAGE_INPUT_TOKENS, ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, EVENT_GEN_AI_EVALUATION_RESULT,
	GEN_AI_OPERATION_NAME_VALUE_CHAT, GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL, GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import type {AtifStep, AtifTrajectory} from '../atif/atif-schema.js';

/** What a task's trace says beyond its trajectory: which attempt and plan it belongs to, and the grader's verdict. */
export interface TaskTraceInput {
	trajectory: AtifTrajectory | null;
	attempt: {attempt_id: string; plan_digest: string; side: string};
	task: {index: number; task_id: string; status: 'passed' | 'failed'; reason: string | null; score: number | null; details: string | null; wall_ms: number | null};
	/** When the task's record was written: where a trace without timestamps is placed. */
	recordedAt: Date;
	/** Conversation content (messages, tool arguments and results, the grader's explanation): only when asked for. */
	content: boolean;
}

/** One trace: invoke_agent at the root, a chat span per model step and an execute_tool span per call under it. */
export function emitTaskTrace(tracer: Tracer, input: TaskTraceInput): void {
	const steps = input.trajectory?.steps ?? [];
	const {start, end} = taskWindow(input, steps);
	// A root of its own: each task is one trace, whatever context the caller runs in.
	const root = tracer.startSpan(`invoke_agent ${input.trajectory?.agent.name ?? input.task.task_id}`, {kind: SpanKind.INTERNAL, startTime: start, root: true, attributes: agentAttributes(input)}, context.active());
	const parent = trace.setSpan(context.active(), root);
	let previous = start;
	for (const step of steps) {
		if (step.source !== 'agent') continue;
		previous = emitModelStep(tracer, parent, input, step, previous);
	}
	root.addEvent(EVENT_GEN_AI_EVALUATION_RESULT, evaluationAttributes(input), end);
	if (input.task.status === 'failed') root.setStatus({code: SpanStatusCode.ERROR, message: input.task.reason ?? 'failed'});
	root.end(end);
}

function taskWindow(input: TaskTraceInput, steps: AtifStep[]): {start: Date; end: Date} {
	const times = steps.flatMap(step => [step.timestamp, ...Object.values(resultTimes(step))]).filter((at): at is string => typeof at === 'string').map(at => new Date(at).getTime());
	const wall = input.task.wall_ms;
	// A span must have both ends: with no wall time and no step times it is an instant at the record, marked hlab.task.wall_unknown.
	if (times.length === 0) return {start: new Date(input.recordedAt.getTime() - (wall ?? 0)), end: input.recordedAt};
	const start = Math.min(...times);
	return {start: new Date(start), end: new Date(Math.max(...times, start + (wall ?? 0)))};
}

function agentAttributes(input: TaskTraceInput): Attributes {
	const {trajectory, attempt, task} = input;
	const agent = trajectory?.agent;
	const first = (source: string) => trajectory?.steps.filter(step => step.source === source).map(step => step.message) ?? [];
	return defined({
		[ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
		[ATTR_GEN_AI_AGENT_NAME]: agent?.name,
		[ATTR_GEN_AI_AGENT_ID]: agent?.version,
		[ATTR_GEN_AI_AGENT_VERSION]: agent?.version,
		[ATTR_GEN_AI_REQUEST_MODEL]: agent?.model_name ?? undefined,
		[ATTR_GEN_AI_CONVERSATION_ID]: trajectory?.session_id,
		[ATTR_GEN_AI_USAGE_INPUT_TOKENS]: trajectory?.final_metrics?.total_prompt_tokens ?? undefined,
		[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: trajectory?.final_metrics?.total_completion_tokens ?? undefined,
		[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: trajectory?.final_metrics?.total_cached_tokens ?? undefined,
		'hlab.attempt.id': attempt.attempt_id,
		'hlab.plan.digest': attempt.plan_digest,
		'hlab.side': attempt.side,
		'hlab.task.id': task.task_id,
		'hlab.task.index': task.index,
		'hlab.task.status': task.status,
		'hlab.task.reason': task.reason ?? undefined,
		// The supervisor's wall time when it measured one; otherwise the span's length is not a duration.
		'hlab.task.wall_ms': task.wall_ms ?? undefined,
		'hlab.task.wall_unknown': task.wall_ms === null ? true : undefined,
		[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS]: input.content ? JSON.stringify(first('system').map(text => ({type: 'text', content: text}))) : undefined,
		[ATTR_GEN_AI_INPUT_MESSAGES]: input.content ? JSON.stringify(first('user').map(text => ({role: 'user', parts: [{type: 'text', content: text}]}))) : undefined,
	});
}

/** The chat span of one model step, then its tool calls; returns when the step's last result came back. */
function emitModelStep(tracer: Tracer, parent: ReturnType<typeof trace.setSpan>, input: TaskTraceInput, step: AtifStep, previous: Date): Date {
	const answered = step.timestamp ? new Date(step.timestamp) : previous;
	const requested = typeof step.extra?.request_started_at === 'string' ? new Date(step.extra.request_started_at) : previous;
	const model = input.trajectory?.agent.model_name ?? step.model_name ?? 'unknown';
	const chat = tracer.startSpan(`chat ${model}`, {kind: SpanKind.CLIENT, startTime: requested, attributes: defined({
		[ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
		[ATTR_GEN_AI_REQUEST_MODEL]: model,
		[ATTR_GEN_AI_RESPONSE_MODEL]: step.model_name ?? undefined,
		[ATTR_GEN_AI_USAGE_INPUT_TOKENS]: step.metrics?.prompt_tokens ?? undefined,
		[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: step.metrics?.completion_tokens ?? undefined,
		[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: step.metrics?.cached_tokens ?? undefined,
		[ATTR_GEN_AI_OUTPUT_MESSAGES]: input.content ? JSON.stringify([outputMessage(step)]) : undefined,
	})}, parent);
	chat.end(answered);
	return emitToolCalls(tracer, parent, input, step, answered);
}

function emitToolCalls(tracer: Tracer, parent: ReturnType<typeof trace.setSpan>, input: TaskTraceInput, step: AtifStep, answered: Date): Date {
	const times = resultTimes(step);
	const errors = new Set(Array.isArray(step.extra?.tool_errors) ? step.extra.tool_errors as string[] : []);
	const results = new Map((step.observation?.results ?? []).map(result => [result.source_call_id, result.content]));
	let last = answered;
	for (const call of step.tool_calls ?? []) {
		const ended = times[call.tool_call_id] ? new Date(times[call.tool_call_id]!) : answered;
		const result = results.get(call.tool_call_id);
		const span: Span = tracer.startSpan(`execute_tool ${call.function_name}`, {kind: SpanKind.INTERNAL, startTime: answered, attributes: defined({
			[ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
			[ATTR_GEN_AI_TOOL_NAME]: call.function_name,
			[ATTR_GEN_AI_TOOL_CALL_ID]: call.tool_call_id,
			[ATTR_GEN_AI_TOOL_TYPE]: 'function',
			[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: input.content ? JSON.stringify(call.arguments) : undefined,
			[ATTR_GEN_AI_TOOL_CALL_RESULT]: input.content && typeof result === 'string' ? result : undefined,
		})}, parent);
		if (errors.has(call.tool_call_id)) span.setStatus({code: SpanStatusCode.ERROR, message: 'the tool reported an error'});
		span.end(ended);
		if (ended > last) last = ended;
	}
	return last;
}

function outputMessage(step: AtifStep): unknown {
	const text = typeof step.message === 'string' && step.message !== '' ? [{type: 'text', content: step.message}] : [];
	const calls = (step.tool_calls ?? []).map(call => ({type: 'tool_call', id: call.tool_call_id, name: call.function_name, arguments: call.arguments}));
	return {role: 'assistant', parts: [...text, ...calls]};
}

function evaluationAttributes(input: TaskTraceInput): Attributes {
	const {task} = input;
	return defined({
		[ATTR_GEN_AI_EVALUATION_NAME]: 'harness-lab grader',
		[ATTR_GEN_AI_EVALUATION_SCORE_VALUE]: task.score ?? undefined,
		[ATTR_GEN_AI_EVALUATION_SCORE_LABEL]: task.status === 'passed' ? 'pass' : 'fail',
		[ATTR_GEN_AI_EVALUATION_EXPLANATION]: input.content ? task.details ?? undefined : undefined,
		'hlab.task.reason': task.reason ?? undefined,
	});
}

function resultTimes(step: AtifStep): Record<string, string> {
	const at = step.extra?.tool_results_at;
	return at !== null && typeof at === 'object' ? at as Record<string, string> : {};
}

/** Attributes cannot be null: an unknown value is left out, never sent as 0. */
function defined(attributes: Record<string, string | number | boolean | undefined>): Attributes {
	return Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined)) as Attributes;
}
