import type {Harness, HarnessPatch, PatchOperationName} from '../../harness/index.js';
import type {Choice, MutationRequest, ProviderBinding, SearchContext} from './search-record.js';

/** Where to search next: a base node, or why not. */
export interface SearchProvider {
	readonly binding: ProviderBinding;
	/** Whether it calls a model (and so needs its own spending limits). */
	readonly callsModel: boolean;
	select(context: SearchContext, gate: ModelCallGate): Promise<Choice>;
}

/** What to change: one patch on the request's base, or none. */
export interface MutationProvider {
	readonly binding: ProviderBinding;
	readonly callsModel: boolean;
	/** The operations it can write; the planner offers their intersection with the policy's. */
	readonly operations: readonly PatchOperationName[];
	mutate(request: MutationRequest, base: Harness, gate: ModelCallGate): Promise<HarnessPatch | null>;
}

/** What a provider's model call measured: the tokens its endpoint reported, or null when it reported none. */
export interface CallMeasure<T> {
	value: T;
	tokens: number | null;
}

/**
 * The one way a provider may call a model: the call reserves its worst case first (and does not happen when it
 * could cross the envelope), and is charged what the endpoint reported. Replay's gate refuses every call.
 */
export interface ModelCallGate {
	call<T>(label: string, run: () => Promise<CallMeasure<T>>): Promise<T>;
}

/** A provider broke its contract (or raised): the search ends with provider-error. */
export class ProviderContractError extends Error {
	readonly reason = 'provider-error';
}
