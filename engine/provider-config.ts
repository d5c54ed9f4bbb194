import {z} from 'zod';

/** The model name the scripted provider answers to (it accepts any name, this is what the engine sends). */
export const scriptedModel = 'hlab-scripted-reference';

/** Which provider a run uses, as configured (and frozen in a plan). */
export const ProviderConfig = z.discriminatedUnion('kind', [
	z.object({kind: z.literal('scripted')}),
	z.object({
		kind: z.literal('openai-compatible'),
		base_url: z.url(),
		model: z.string().min(1),
		/** The name of the environment variable holding the API key; the key itself is never recorded. */
		api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'),
		reasoning_effort: z.string().min(1).nullable().optional(),
	}),
]);
export type ProviderConfig = z.infer<typeof ProviderConfig>;

/** A provider resolved to an endpoint; for `scripted` the base URL is the running server's. */
export const ResolvedProvider = z.object({
	base_url: z.string(),
	model: z.string().min(1),
	api_key_env: z.string().nullable(),
	reasoning_effort: z.string().nullable().optional(),
});
export type ResolvedProvider = z.infer<typeof ResolvedProvider>;

/** Binds a configuration to an endpoint; `scriptedUrl` is required for the scripted provider. */
export function resolveProvider(config: ProviderConfig, scriptedUrl?: string): ResolvedProvider {
	if (config.kind === 'openai-compatible') {
		return {base_url: config.base_url, model: config.model, api_key_env: config.api_key_env, reasoning_effort: config.reasoning_effort ?? null};
	}
	if (scriptedUrl === undefined) throw new Error('the scripted provider needs a running scripted server (startScriptedServer)');
	return {base_url: scriptedUrl, model: scriptedModel, api_key_env: null, reasoning_effort: null};
}
