import type {SpecOf} from '../spec-of.js';

export type PiSpec = SpecOf<'pi'>;
