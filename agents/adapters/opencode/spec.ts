import type {SpecOf} from '../spec-of.js';

export type OpencodeSpec = SpecOf<'opencode'>;
