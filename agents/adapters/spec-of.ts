import type {AdapterId} from '../adapter-id.js';
import type {AgentSpec} from '../agent-spec.js';

/** The spec one adapter is handed: the member of the union with its id. */
export type SpecOf<Id extends AdapterId> = Extract<AgentSpec, {adapter: Id}>;
