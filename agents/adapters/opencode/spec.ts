import type {AgentSpec} from '../../agent-spec.js';

export type OpencodeSpec = Extract<AgentSpec, {adapter: 'opencode'}>;
