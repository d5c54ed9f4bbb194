import type {Harness, HarnessPatch, PatchOperationName} from '../../harness/index.js';
import type {Choice, MutationRequest, ProviderBinding, SearchContext} from './search-record.js';

/** Where to search next: a base node, or why not. */
export interface SearchProvider {
	readonly binding: ProviderBinding;
	/** Whether it calls a model (and so needs its own spending limits). */
	readonly callsModel: boolean;
	select(context: SearchContext): Promise<Choice>;
}

/** What to change: one patch on the request's base, or none. */
export interface MutationProvider {
	readonly binding: ProviderBinding;
	readonly callsModel: boolean;
	/** The operations it can write; the planner offers their intersection with the policy's. */
	readonly operations: readonly PatchOperationName[];
	mutate(request: MutationRequest, base: Harness): Promise<HarnessPatch | null>;
}

/** A provider broke its contract (or raised): the search ends with provider-error. */
export class ProviderContractError extends Error {
	readonly reason = 'provider-error';
}
