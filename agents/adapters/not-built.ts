import type {AgentAdapter} from '../adapter-contract.js';
import type {AdapterId} from '../adapter-id.js';
import type {SpecOf} from './spec-of.js';

/** What a placeholder adapter throws at launch: the run is refused (`init`) with this message, never half started. */
export class AdapterNotBuilt extends Error {
	readonly reason = 'not_built';
}

/** An adapter known by its identity (bin, reserved flags) whose launch is not written yet. */
export function notBuilt<Id extends Exclude<AdapterId, 'command'>>(known: {id: Id; version: number; bin: string; reservedFlags: string[]}): AgentAdapter<SpecOf<Id>> {
	const refuse = (): never => {
		throw new AdapterNotBuilt(`the ${known.id} adapter is not built yet: its spec is accepted and installed, but it cannot run a task`);
	};
	return {...known, id: known.id as SpecOf<Id>['adapter'], launch: refuse, collect: refuse, classify: refuse};
}
