import {z} from 'zod';

const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** A compiled single-file candidate: what runs and what goes into evidence. */
export const CandidateSnapshot = z.object({
	/** Absolute path of the source when it was compiled. */
	source_path: z.string(),
	source: z.string(),
	/** The ESM bundle that is imported. */
	code: z.string(),
	source_digest: Digest,
	code_digest: Digest,
	/** Digest of the SDK files the candidate was compiled against (see `sdkFiles`). */
	sdk_digest: Digest,
});
export type CandidateSnapshot = z.infer<typeof CandidateSnapshot>;
