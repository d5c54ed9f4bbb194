import type {ResolvedProvider} from '../../engine/provider-config.js';

/**
 * Agents append `/chat/completions` (or `/responses`) to a base URL that ends in `/v1`; the proxy appends the
 * request's path to its upstream. So a `/v1` upstream is given to the proxy without it, and the agent gets it back.
 */
export function agentEndpoint(upstream: ResolvedProvider): {proxied: ResolvedProvider; suffix: string} {
	const trimmed = upstream.base_url.replace(/\/+$/, '');
	if (!trimmed.endsWith('/v1')) return {proxied: {...upstream, base_url: trimmed}, suffix: ''};
	return {proxied: {...upstream, base_url: trimmed.slice(0, -'/v1'.length)}, suffix: '/v1'};
}
