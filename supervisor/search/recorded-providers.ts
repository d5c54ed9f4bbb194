import {canonicalJson} from '../../files/canonical-json.js';
import {patchOperationNames, type HarnessPatch} from '../../harness/index.js';
import {ProviderContractError, type MutationProvider, type SearchProvider} from './providers.js';
import {fingerprintContext, type ProviderBinding} from './search-record.js';
import type {SearchReport} from './search-report.js';

/**
 * A model-backed mutation provider in planning replay: bound as recorded, it answers each request with the
 * response the report holds for exactly that request, and calls no model. A request the report does not hold
 * means the planning went differently, which replay names.
 */
export function recordedMutationProvider(binding: ProviderBinding, report: SearchReport): MutationProvider {
	const answers = new Map<string, HarnessPatch | null>();
	for (const round of report.rounds) {
		for (const {outcome} of round.plans) outcome.requests.forEach((request, index) => answers.set(canonicalJson(request), outcome.responses[index] ?? null));
	}
	return {
		binding,
		callsModel: true,
		operations: patchOperationNames,
		async mutate(request) {
			const key = canonicalJson(request);
			if (!answers.has(key)) throw new ProviderContractError(`no recorded response for round ${request.round} attempt ${request.attempt}`);
			return answers.get(key) ?? null;
		},
	};
}

/** A model-backed search provider in planning replay: the recorded choice for a recorded context, and no model call. */
export function recordedSearchProvider(binding: ProviderBinding, report: SearchReport): SearchProvider {
	const choices = new Map(report.rounds.flatMap(round => round.plans.map(({outcome}) => [outcome.context_fingerprint, outcome.choice] as const)));
	return {
		binding,
		callsModel: true,
		async select(context) {
			const choice = choices.get(fingerprintContext(context));
			if (choice === undefined) throw new ProviderContractError(`no recorded choice for this context of round ${context.round}`);
			return choice;
		},
	};
}
