import {resolveProvider, type ResolvedProvider} from '../../engine/index.js';
import {startScriptedService} from '../attempt/scripted-service.js';
import type {PlanProvider} from '../plan/plan-schema.js';

export interface StartedProvider {
	provider: ResolvedProvider;
	/** What the run is bound to (recorded as service bindings). */
	bindings: Record<string, string>;
	close(): Promise<void>;
}

/**
 * Binds a provider as a plan records it to an endpoint: the scripted provider starts as its own supervised
 * process (its records kept in `evidenceDir`), an openai-compatible one is only addressed. Mirrors the attempt
 * runner's own provider start, so `hlab agent` talks to the same provider an attempt would.
 */
export async function startProvider(provider: PlanProvider, evidenceDir: string): Promise<StartedProvider> {
	if (provider.kind === 'scripted') {
		const server = await startScriptedService(evidenceDir);
		// The plan's model is a label; the scripted server is always asked as the engine asks it.
		return {provider: resolveProvider({kind: 'scripted'}, server.url), bindings: {scripted_provider: server.url}, close: () => server.close()};
	}
	return {
		provider: {base_url: provider.base_url, model: provider.model, api_key_env: provider.api_key_env, reasoning_effort: provider.reasoning_effort},
		bindings: {provider: provider.base_url},
		close: async () => undefined,
	};
}
