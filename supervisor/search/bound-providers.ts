import type {MutationProvider, SearchProvider} from './providers.js';
import {recordedMutationProvider, recordedSearchProvider} from './recorded-providers.js';
import {scriptedMutationProvider} from './scripted-mutation-provider.js';
import {scriptedSearchProvider} from './scripted-search-provider.js';
import type {SearchReport} from './search-report.js';

/**
 * The providers to bind for replaying a recorded search. A scripted provider is run again; a model-backed one
 * answers from the record (replay calls no model). A kind this build lacks gets the scripted provider, whose
 * binding then differs, and replay says so.
 */
export function providersFor(report: SearchReport): {search: SearchProvider; mutation: MutationProvider} {
	const search = report.search.kind === 'openai-compatible-search' ? recordedSearchProvider(report.search, report) : scriptedSearchProvider();
	const mutation = report.mutation.kind === 'openai-compatible-mutation' ? recordedMutationProvider(report.mutation, report) : scriptedMutationProvider();
	return {search, mutation};
}
