import type {AgentAdapter} from '../adapter-contract.js';
import type {AdapterId} from '../adapter-id.js';
import type {SpecOf} from './spec-of.js';
import {codexAdapter} from './codex/index.js';
import {commandAdapter} from './command/index.js';
import {opencodeAdapter} from './opencode/index.js';
import {piAdapter} from './pi/index.js';
import {qwenCodeAdapter} from './qwen-code/index.js';

/** Every adapter a spec may name, by its id: one folder each under agents/adapters/. */
export const adapters: {[Id in AdapterId]: AgentAdapter<SpecOf<Id>>} = {
	'qwen-code': qwenCodeAdapter,
	opencode: opencodeAdapter,
	pi: piAdapter,
	codex: codexAdapter,
	command: commandAdapter,
};

/** The adapter of a spec, typed for that spec. */
export function adapterOf<Spec extends SpecOf<AdapterId>>(spec: Spec): AgentAdapter<Spec> {
	return adapters[spec.adapter] as unknown as AgentAdapter<Spec>;
}
