import type {AgentSpec} from '../../agent-spec.js';

export type QwenSpec = Extract<AgentSpec, {adapter: 'qwen-code'}>;
