import type {AgentSpec} from '../../agent-spec.js';

export type PiSpec = Extract<AgentSpec, {adapter: 'pi'}>;
