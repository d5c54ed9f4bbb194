import type {AgentIdentity} from '../../../agents/agent-identity.js';
import type {Usage} from '../../../engine/outcome.js';
import {hlabVersion} from '../../plan/hlab-version.js';
import {atifVersion, type AtifMetrics, type AtifStep, type AtifToolCall, type AtifTrajectory} from './atif-schema.js';
import type {JournalResponse, JournalStart, TaskMessage, TaskRecords} from './task-records.js';

export interface TrajectoryInput {
	/** `<attempt id>/<task folder>`: one task of one attempt. */
	sessionId: string;
	records: TaskRecords;
	/** A third-party agent's identity (agent-task.json); the engine's comes from its journal. */
	agent: AgentIdentity | null;
	/** The task's metered usage (result.json); null when it never reached the model. */
	usage: Usage | null;
}

/** A task's trajectory: one step per message, a tool's result on the step of the call it answers. Not yet validated. */
export function buildTrajectory(input: TrajectoryInput): AtifTrajectory {
	const {records} = input;
	const steps: AtifStep[] = [];
	const callSteps = new Map<string, AtifStep>();
	for (const message of records.messages) {
		if (message.role === 'tool') {
			const owner = message.tool_call_id === undefined ? undefined : callSteps.get(message.tool_call_id);
			if (owner !== undefined) {
				addResult(owner, message);
				continue;
			}
		}
		const step = stepOf(message, steps.length + 1, records);
		for (const call of step.tool_calls ?? []) callSteps.set(call.tool_call_id, step);
		steps.push(step);
	}
	return {
		schema_version: atifVersion,
		session_id: input.sessionId,
		agent: agentOf(input.agent, records.start),
		steps,
		final_metrics: finalMetrics(input.usage, steps.length),
	};
}

function stepOf(message: TaskMessage, stepId: number, records: TaskRecords): AtifStep {
	const base = {step_id: stepId, ...(message.at === null ? {} : {timestamp: message.at}), message: message.content ?? ''};
	if (message.role === 'tool') return {...base, source: 'system', extra: {orphan_tool_result: message.tool_call_id ?? null, tool_name: message.tool_name ?? null}};
	// A plugin's stop is shown as an assistant record, but no model wrote it.
	if (message.provenance !== undefined) return {...base, source: 'system', extra: {provenance: message.provenance}};
	if (message.role !== 'assistant') return {...base, source: message.role};
	const stepIndex = message.step_index ?? null;
	const response = stepIndex === null ? undefined : records.responses.get(stepIndex);
	const calls = (message.tool_calls ?? []).map((call, index) => toolCall(call, `call_hlab_${stepId}_${index}`));
	const requestedAt = stepIndex === null ? undefined : records.requestedAt.get(stepIndex);
	return {
		...base,
		source: 'agent',
		model_name: response?.body.model ?? records.start?.provider.model ?? null,
		...(records.start?.provider.reasoning_effort ? {reasoning_effort: records.start.provider.reasoning_effort} : {}),
		...(calls.length > 0 ? {tool_calls: calls} : {}),
		metrics: metricsOf(response),
		extra: {step_index: stepIndex, request_started_at: requestedAt ?? null},
	};
}

/**
 * The call as the format wants it: an id and a name that are never empty (an agent's own record may have them so; the
 * call then keeps its place, and its result, which cannot name it, becomes a step of its own), and the arguments as an
 * object, text that is no JSON object kept whole under `raw`.
 */
function toolCall(call: {id: string; name: string; arguments: string}, fallbackId: string): AtifToolCall {
	let parsed: unknown = null;
	try {
		parsed = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
	} catch {
		// Kept below as text: a model may send arguments that are not JSON.
	}
	const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
	return {tool_call_id: call.id || fallbackId, function_name: call.name || 'unknown', arguments: isObject ? parsed as Record<string, unknown> : {raw: call.arguments}};
}

function addResult(step: AtifStep, message: TaskMessage): void {
	const results = step.observation?.results ?? [];
	results.push({source_call_id: message.tool_call_id, content: message.content});
	step.observation = {results};
	const extra = step.extra ?? {};
	// Without a prototype: a call id is the model's text, and `__proto__` must stay a key like any other.
	const at = (extra.tool_results_at ?? Object.create(null)) as Record<string, string | null>;
	at[message.tool_call_id!] = message.at;
	const errors = (extra.tool_errors ?? []) as string[];
	if (message.is_error === true) errors.push(message.tool_call_id!);
	step.extra = {...extra, tool_results_at: at, tool_errors: errors};
}

/** The step's answer's usage as the provider reported it: a field it did not report is null, never 0. */
function metricsOf(response: JournalResponse | undefined): AtifMetrics {
	const usage = response?.body.usage ?? null;
	const details = usage?.prompt_tokens_details ?? null;
	return {
		prompt_tokens: usage?.prompt_tokens ?? null,
		completion_tokens: usage?.completion_tokens ?? null,
		cached_tokens: details?.cached_tokens ?? null,
		cost_usd: usage?.cost ?? null,
		extra: {cache_write_tokens: details?.cache_write_tokens ?? null},
	};
}

function agentOf(agent: AgentIdentity | null, start: JournalStart | null): AtifTrajectory['agent'] {
	if (agent !== null) {
		return {
			name: agent.package?.name ?? agent.adapter,
			version: agent.package?.version ?? agent.executable_digest ?? 'unknown',
			model_name: agent.model,
			extra: {adapter: agent.adapter, adapter_version: agent.adapter_version, config_digest: agent.config_digest, installed_digest: agent.installed_digest, harness_lab: hlabVersion},
		};
	}
	return {
		name: start?.harness?.name ?? 'unknown',
		// A Harness has no release number: its fingerprint is what names one version of it.
		version: start?.harness?.fingerprint.digest ?? 'unknown',
		model_name: start?.provider.model ?? null,
		extra: {harness_fingerprint: start?.harness?.fingerprint.digest ?? null, harness_lab: hlabVersion},
	};
}

function finalMetrics(usage: Usage | null, steps: number): AtifTrajectory['final_metrics'] {
	return {
		total_prompt_tokens: usage?.input_tokens ?? null,
		total_completion_tokens: usage?.output_tokens ?? null,
		total_cached_tokens: usage?.cache_read_tokens ?? null,
		total_cost_usd: usage?.cost_usd ?? null,
		total_steps: steps,
		extra: {turns: usage?.turns ?? null, cache_write_tokens: usage?.cache_write_tokens ?? null},
	};
}
