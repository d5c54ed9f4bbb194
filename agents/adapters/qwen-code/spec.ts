import type {SpecOf} from '../spec-of.js';

export type QwenSpec = SpecOf<'qwen-code'>;
