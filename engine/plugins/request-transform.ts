import {z} from 'zod';
import {capabilityIds, type AgentRequestTransformInput, type AgentRequestTransformOutput, type ChatMessage} from '../../sdk/plugin.js';
import type {Deadline} from '../deadline.js';
import {deepFreeze} from '../deep-freeze.js';
import type {JsonlLog} from '../loop/jsonl-log.js';
import {invokeProvider} from './invoke-provider.js';
import type {LoadedPlugin} from './loaded-plugin.js';
import {providersOf} from './plugin-order.js';
import type {StopDecision} from './step-policy.js';
import {describeIssues} from '../../controller-protocol/describe-issues.js';

const Message: z.ZodType<ChatMessage> = z.object({
	role: z.enum(['system', 'user', 'assistant', 'tool']),
	content: z.string().nullable(),
	tool_calls: z.array(z.object({id: z.string(), type: z.literal('function'), function: z.object({name: z.string(), arguments: z.string()})})).optional(),
	tool_call_id: z.string().optional(),
}).strict();

export const RequestTransformOutput: z.ZodType<AgentRequestTransformOutput> = z.object({messages: z.array(Message).min(1).optional()}).strict();

function check(output: unknown): {ok: true; value: AgentRequestTransformOutput} | {ok: false; problem: string} {
	const parsed = RequestTransformOutput.safeParse(output);
	if (parsed.success) return {ok: true, value: parsed.data};
	return {ok: false, problem: describeIssues(parsed.error, {root: 'output'})};
}

/** Composes the request transforms in order, each on the previous one's messages; a failing one may stop the loop. */
export async function transformRequest(
	plugins: readonly LoadedPlugin[],
	input: Omit<AgentRequestTransformInput, 'messages'> & {messages: ChatMessage[]},
	context: {deadline: Deadline; journal: JsonlLog},
): Promise<{messages: ChatMessage[]} | StopDecision> {
	let messages = input.messages;
	for (const provider of providersOf(plugins, capabilityIds.requestTransform)) {
		const view = Object.freeze({...input, messages: deepFrozenCopy(messages), tools: deepFrozenCopy(input.tools)});
		const result = await invokeProvider(provider, view, check, {...context, step_index: input.step_index});
		if (!result.ok) {
			if (result.action === 'continue') continue;
			return {stop: true, plugin: provider.plugin.id, capability: capabilityIds.requestTransform, reason: 'plugin_error', content: result.content};
		}
		const changed = result.value.messages !== undefined;
		if (result.value.messages) messages = structuredClone(result.value.messages);
		context.journal.append('transform', {plugin: provider.plugin.id, step_index: input.step_index, changed, message_count: messages.length});
	}
	return {messages};
}

function deepFrozenCopy<T>(value: T): T {
	return deepFreeze(structuredClone(value));
}
