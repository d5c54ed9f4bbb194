import {resolveProvider, type ResolvedProvider} from '../../../engine/provider-config.js';
import type {PlanProvider} from '../../plan/plan-schema.js';
import {responsiveSeed} from '../../../scripted/responsive-play.js';
import type {ScriptedConversation} from '../../../scripted/index.js';
import {startScriptedService} from './scripted-service.js';
import type {ServiceWatch} from './service-watch.js';

/** The model endpoint every task of the attempt talks to, and how the attempt record names it. */
export interface ProviderService {
	provider: ResolvedProvider;
	bindings: Record<string, string>;
	close(): Promise<void>;
}

/**
 * Binds a provider as a plan records it: the scripted provider runs as a supervised process whose records go
 * to `dir` (its death is told to `watch`); a real endpoint only needs resolving. An attempt and `hlab agent` both start theirs here.
 */
export async function startProvider(planned: PlanProvider, dir: string, conversations: readonly ScriptedConversation[] = [], watch: ServiceWatch | null = null): Promise<ProviderService> {
	if (planned.kind === 'scripted') {
		const server = await startScriptedService(dir, conversations, watch);
		const resolved = resolveProvider({kind: 'scripted'}, server.url);
		// The responsive scripted model is asked for by name (it carries the seed); any other scripted plan plays the reference.
		const provider = responsiveSeed(planned.model) === null ? resolved : {...resolved, model: planned.model};
		return {provider, bindings: {scripted_provider: server.url}, close: () => server.close()};
	}
	const provider = resolveProvider({kind: 'openai-compatible', base_url: planned.base_url, model: planned.model, api_key_env: planned.api_key_env ?? '', reasoning_effort: planned.reasoning_effort});
	return {provider: {...provider, api_key_env: planned.api_key_env}, bindings: {provider: planned.base_url}, close: async () => undefined};
}
