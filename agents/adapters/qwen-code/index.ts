import type {AgentAdapter} from '../../adapter-contract.js';
import {classify} from './classify.js';
import {collect} from './collect.js';
import {launch} from './launch.js';
import type {QwenSpec} from './spec.js';

/** Qwen Code (`@qwen-code/qwen-code`): OpenAI auth from the environment, settings.json pinning every model, stream-json on stdout. */
export const qwenCodeAdapter: AgentAdapter<QwenSpec> = {
	id: 'qwen-code',
	version: 1,
	bin: 'qwen',
	reservedFlags: [
		'--model', '-m', '--prompt', '-p', '--yolo', '-y', '--approval-mode', '--openai-api-key', '--openai-base-url',
		'--output-format', '-o', '--auth-type', '--max-session-turns', '--max-wall-time', '--system-prompt', '--fallback-model', '--input-format', '--bare', '--safe-mode', '--telemetry',
	],
	launch,
	collect,
	classify,
};
