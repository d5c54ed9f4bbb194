import {notBuilt} from '../not-built.js';

// The reserved flags are the ones Qwen Code uses for model, prompt, approvals and its endpoint.
export const qwenCodeAdapter = notBuilt({id: 'qwen-code', version: 1, bin: 'qwen', reservedFlags: ['--model', '-m', '--prompt', '-p', '--yolo', '-y', '--approval-mode', '--openai-api-key', '--openai-base-url']});
