import {z} from 'zod';
import {HarnessFingerprint} from './fingerprint.js';
import {Harness} from './harness-schema.js';
import {HarnessPatch} from './patch-schema.js';

/** A candidate a planner proposes: the patch, the child it claims the patch gives, and that child's fingerprint. */
export const HarnessProposal = z.object({
	patch: HarnessPatch,
	harness: Harness,
	fingerprint: HarnessFingerprint,
}).strict();
export type HarnessProposal = z.infer<typeof HarnessProposal>;
