import type {CapabilityErrorPolicy} from '../../sdk/plugin.js';
import {EngineError} from '../engine-error.js';
import type {Deadline} from '../deadline.js';
import type {JsonlLog} from '../loop/jsonl-log.js';
import type {Provider} from './plugin-order.js';

/** What to do after a provider failed, per its declared error policy. */
export type ErrorAction = {action: 'continue'} | {action: 'stop'; content: string};

/**
 * Invokes one provider and validates its output. A throw or malformed output follows the declared error policy;
 * cancellation and the deadline always propagate, whatever the policy says.
 */
export async function invokeProvider<T>(
	provider: Provider,
	input: unknown,
	validate: (output: unknown) => {ok: true; value: T} | {ok: false; problem: string},
	context: {deadline: Deadline; journal: JsonlLog; step_index: number},
): Promise<{ok: true; value: T} | ({ok: false} & ErrorAction)> {
	const {plugin, capability} = provider;
	let problem: string;
	try {
		const output = await context.deadline.race(plugin.invoke(capability.id, input, context.deadline.signal));
		const checked = validate(output);
		if (checked.ok) return checked;
		problem = `answered invalid output: ${checked.problem}`;
	} catch (error) {
		context.deadline.throwIfEnded();
		problem = `threw: ${error instanceof Error ? error.message : String(error)}`;
	}
	context.deadline.throwIfEnded();
	const policy: CapabilityErrorPolicy = capability.on_error;
	context.journal.append('plugin_error', {plugin: plugin.id, capability: capability.id, step_index: context.step_index, problem, on_error: policy});
	if (policy === 'continue') return {ok: false, action: 'continue'};
	if (policy === 'stop') return {ok: false, action: 'stop', content: `Stopped because plugin ${plugin.id} (${capability.id}) ${problem}. The task may be incomplete.`};
	throw new EngineError('crash', `plugin ${plugin.id} (${capability.id}) ${problem}`);
}
