/**
 * Stops before a third model request when the last two model turns made identical tool requests and got
 * identical observations, and adds matching guidance to every request. Meant for tasks that do not need
 * polling: on a task that waits for something by repeating a check, it stops too early.
 * Validate it with `hlab plugin validate --json examples/candidates/repeated-observation.ts`.
 */
import type {
	AgentRequestTransformInput,
	AgentRequestTransformOutput,
	AgentStepPolicyInput,
	AgentStepPolicyOutput,
	RuntimePlugin,
	TranscriptEntry,
} from 'hlab/sdk';

const guidance = 'Do not repeat a tool call whose result cannot have changed since you last made it.';

/** JSON arguments in a key-order-independent form; text that is not JSON stays as it is. */
function canonicalArguments(text: string): string {
	const sorted = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(sorted);
		if (value !== null && typeof value === 'object') {
			return Object.fromEntries(Object.keys(value).sort().map(key => [key, sorted((value as Record<string, unknown>)[key])]));
		}
		return value;
	};
	try {
		return JSON.stringify(sorted(JSON.parse(text)));
	} catch {
		return text;
	}
}

interface Round {
	requests: string;
	observations: string;
	tools: string[];
}

/** The model's turns, newest last, each with its tool requests and the observations they got. */
function rounds(transcript: readonly TranscriptEntry[]): (Round | null)[] {
	const result: (Round | null)[] = [];
	for (const [index, entry] of transcript.entries()) {
		if (entry.role === 'user' && entry.step_index !== null) result.push(null);
		if (entry.role !== 'assistant' || entry.provenance) continue;
		const calls = entry.tool_calls ?? [];
		if (calls.length === 0) {
			result.push(null);
			continue;
		}
		const answers = transcript.slice(index + 1).filter(other => other.role === 'tool');
		const observations = calls.map(call => {
			const answer = answers.find(other => other.tool_call_id === call.id);
			return answer ? [answer.is_error === true, answer.content] : null;
		});
		result.push({
			requests: JSON.stringify(calls.map(call => [call.name, canonicalArguments(call.arguments)])),
			observations: JSON.stringify(observations),
			tools: calls.map(call => call.name),
		});
	}
	return result;
}

function decide(step: AgentStepPolicyInput): AgentStepPolicyOutput {
	const all = rounds(step.transcript);
	const last = all.at(-1);
	const previous = all.at(-2);
	if (!last || !previous || last.requests !== previous.requests || last.observations !== previous.observations) return {stop: false};
	return {
		stop: true,
		reason: 'repeated_observation',
		content: `Stopped before another model request: the last two identical tool requests (${last.tools.join(', ')}) returned identical observations. `
			+ 'Task correctness is unresolved: this stop does not check whether the work is complete.',
	};
}

function addGuidance(request: AgentRequestTransformInput): AgentRequestTransformOutput {
	const [first, ...rest] = request.messages;
	if (!first || first.role !== 'system') return {};
	return {messages: [{...first, content: `${first.content ?? ''}\n${guidance}`}, ...rest]};
}

export default {
	initialize() {
		return {
			protocol_version: 1,
			id: 'repeated-observation',
			capabilities: [
				{id: 'agent.step.policy', kind: 'decision', version: 1, on_error: 'continue'},
				{id: 'agent.request.transform', kind: 'transform', version: 1, on_error: 'continue'},
			],
		};
	},
	invokeCapability({capability, input}) {
		if (capability === 'agent.step.policy') return {output: decide(input as AgentStepPolicyInput)};
		return {output: addGuidance(input as AgentRequestTransformInput)};
	},
} satisfies RuntimePlugin;
