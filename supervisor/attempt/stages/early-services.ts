import {startSpawner, type Spawner} from '../../../process/index.js';
import {loadConversations} from '../../plan/freeze-responses.js';
import {openAttemptHost, type AttemptHost} from './attempt-host.js';
import type {AttemptContext} from './attempt-context.js';
import {ServiceWatch} from './service-watch.js';
import {settle, type Settled} from './settled.js';
import {startProvider, type ProviderService} from './start-provider.js';

/**
 * What an attempt starts beside admission because nothing admission decides changes it: the provider (but a cartridge
 * plan's, which plays the cases admission loads), the host's measure and a host attempt's spawner. A refused attempt
 * closes them unused; no task runs before admission has answered, so none talks to a provider admission refused.
 */
export interface EarlyServices {
	/** The services that die during the attempt (the provider's death is told here). */
	watch: ServiceWatch;
	/** Null for a cartridge plan: its provider starts once admission has loaded the cartridge. */
	provider: Promise<Settled<ProviderService>> | null;
	host: Promise<Settled<AttemptHost>>;
	/** A local host attempt's spawner; null otherwise. */
	spawner: Promise<Settled<Spawner>> | null;
}

export function startEarlyServices(attempt: AttemptContext): EarlyServices {
	const {plan, options} = attempt;
	const watch = new ServiceWatch();
	// loadConversations checks the response script against the plan's frozen digest itself, as admission does.
	const provider = plan.cartridge === undefined ? settle(loadConversations(plan).then(conversations => startProvider(plan.provider, attempt.dir, conversations, watch))) : null;
	const local = (options.remotePlacement ?? null) === null;
	const spawner = local && (options.candidateHost ?? null) !== null ? settle(startSpawner()) : null;
	return {watch, provider, host: settle(openAttemptHost(attempt)), spawner};
}

/** Closes what started early and will not be used (the attempt refused, or it threw before its services were up). */
export async function closeEarlyServices(early: EarlyServices, keep: {provider: boolean; spawner: boolean} = {provider: false, spawner: false}): Promise<void> {
	const provider = keep.provider ? null : await early.provider;
	const spawner = keep.spawner ? null : await early.spawner;
	await Promise.all([provider !== null && 'value' in provider ? provider.value.close() : null, spawner !== null && 'value' in spawner ? spawner.value.close() : null]);
}
