import {z} from 'zod';
import {capabilityIds, type AgentStepPolicyInput, type AgentStepPolicyOutput} from '../../sdk/plugin.js';
import type {Deadline} from '../deadline.js';
import type {JsonlLog} from '../loop/jsonl-log.js';
import {invokeProvider} from './invoke-provider.js';
import type {LoadedPlugin} from './loaded-plugin.js';
import {providersOf} from './plugin-order.js';
import {describeIssues} from '../../controller-protocol/describe-issues.js';

const NonEmpty = z.string().refine(text => text.trim().length > 0, 'must not be empty');

export const StepPolicyOutput: z.ZodType<AgentStepPolicyOutput> = z.union([
	z.object({stop: z.literal(false)}),
	z.object({stop: z.literal(true), reason: NonEmpty, content: NonEmpty}),
]);

/** A stop: who stopped the loop, why, and the visible content; `error` when a failing plugin's policy said `stop`. */
export interface StopDecision {
	stop: true;
	plugin: string;
	capability: typeof capabilityIds[keyof typeof capabilityIds];
	reason: string;
	content: string;
}

function check(output: unknown): {ok: true; value: AgentStepPolicyOutput} | {ok: false; problem: string} {
	const parsed = StepPolicyOutput.safeParse(output);
	if (parsed.success) return {ok: true, value: parsed.data};
	return {ok: false, problem: describeIssues(parsed.error, {root: 'output'})};
}

/** Runs the step policies in order; the first stop short-circuits the rest. */
export async function decideStep(
	plugins: readonly LoadedPlugin[],
	input: AgentStepPolicyInput,
	context: {deadline: Deadline; journal: JsonlLog},
): Promise<StopDecision | null> {
	for (const provider of providersOf(plugins, capabilityIds.stepPolicy)) {
		const result = await invokeProvider(provider, input, check, {...context, step_index: input.step_index});
		const base = {plugin: provider.plugin.id, capability: capabilityIds.stepPolicy, priority: provider.capability.priority, step_index: input.step_index};
		if (!result.ok) {
			if (result.action === 'continue') continue;
			context.journal.append('policy', {...base, decision: 'stop', reason: 'plugin_error'});
			return {stop: true, plugin: provider.plugin.id, capability: capabilityIds.stepPolicy, reason: 'plugin_error', content: result.content};
		}
		const decision = result.value;
		context.journal.append('policy', {...base, decision: decision.stop ? 'stop' : 'continue', ...(decision.stop ? {reason: decision.reason} : {})});
		if (decision.stop) return {stop: true, plugin: provider.plugin.id, capability: capabilityIds.stepPolicy, reason: decision.reason, content: decision.content};
	}
	return null;
}
