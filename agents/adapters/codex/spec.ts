import type {SpecOf} from '../spec-of.js';

export type CodexSpec = SpecOf<'codex'>;
