import {providerTokenUnit} from './envelope.js';
import type {SearchPolicy} from './policy-schema.js';
import type {ModelCallGate} from './providers.js';
import {spendOf} from './spend.js';
import type {SpendingLedger} from './spending-ledger.js';
import {SpendingExceededError, SpendingLimitStop} from './stop-errors.js';

/**
 * Provider model calls as units of spending: each reserves one provider call and its declared worst case in
 * tokens before it is made; it is charged the tokens the endpoint reported, or its whole reservation when it
 * reported none or the call raised.
 */
export function ledgerGate(ledger: SpendingLedger, policy: SearchPolicy): ModelCallGate {
	const worst = spendOf({model_calls: {provider: 1}, tokens: {[providerTokenUnit]: policy.envelope.provider_call_tokens ?? 0}});
	return {
		async call(label, run) {
			const reserved = ledger.reserve('model-call', `provider ${label}`, worst);
			if (!reserved.ok) throw new SpendingLimitStop(reserved.detail);
			let measured;
			try {
				measured = await run();
			} catch (error) {
				ledger.abandon(error instanceof Error ? error.constructor.name : typeof error);
				throw error;
			}
			const exceeded = ledger.settle(reserved.id, {model_calls: {provider: 1}, tokens: {[providerTokenUnit]: measured.tokens}});
			if (exceeded.length > 0) throw new SpendingExceededError(`measured above the reservation: ${exceeded.join('; ')}`);
			return measured.value;
		},
	};
}
