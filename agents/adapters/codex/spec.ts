import type {AgentSpec} from '../../agent-spec.js';

export type CodexSpec = Extract<AgentSpec, {adapter: 'codex'}>;
