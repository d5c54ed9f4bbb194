import {resolveProvider, type ResolvedProvider} from '../../engine/provider-config.js';
import type {Plan} from '../plan/plan-schema.js';
import {startScriptedService} from './scripted-service.js';

/** The model endpoint every task of the attempt talks to, and how the attempt record names it. */
export interface ProviderService {
	provider: ResolvedProvider;
	bindings: Record<string, string>;
	close(): Promise<void>;
}

/** The scripted provider runs as a supervised process of the attempt; a real endpoint only needs resolving. */
export async function startProvider(plan: Plan, dir: string): Promise<ProviderService> {
	if (plan.provider.kind === 'scripted') {
		const server = await startScriptedService(dir);
		return {provider: resolveProvider({kind: 'scripted'}, server.url), bindings: {scripted_provider: server.url}, close: () => server.close()};
	}
	const provider = resolveProvider({kind: 'openai-compatible', base_url: plan.provider.base_url, model: plan.provider.model, api_key_env: plan.provider.api_key_env ?? '', reasoning_effort: plan.provider.reasoning_effort});
	return {provider: {...provider, api_key_env: plan.provider.api_key_env}, bindings: {provider: plan.provider.base_url}, close: async () => undefined};
}
