import type {MutationProvider, SearchProvider} from './providers.js';
import {scriptedMutationProvider} from './scripted-mutation-provider.js';
import {scriptedSearchProvider} from './scripted-search-provider.js';
import type {ProviderBinding} from './search-record.js';

/** The search providers this build has, by the kind their binding names. */
const searchProviders: Record<string, () => SearchProvider> = {'scripted-best-first': scriptedSearchProvider};
const mutationProviders: Record<string, () => MutationProvider> = {'scripted-ideas': scriptedMutationProvider};

/** The providers to bind for a recorded search: the ones of the recorded kinds, or the scripted ones when this build lacks a kind (replay then names the difference). */
export function providersFor(search: ProviderBinding, mutation: ProviderBinding): {search: SearchProvider; mutation: MutationProvider} {
	return {
		search: (searchProviders[search.kind] ?? scriptedSearchProvider)(),
		mutation: (mutationProviders[mutation.kind] ?? scriptedMutationProvider)(),
	};
}
