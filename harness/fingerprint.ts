import {z} from 'zod';
import {digestJson, digestScheme} from '../files/digest.js';
import {Harness, harnessSchemaVersion} from './harness-schema.js';

/** Which harness ran: the digest of its canonical JSON, with the versions of the format and of the digest scheme. */
export const HarnessFingerprint = z.object({
	schema: z.literal(harnessSchemaVersion),
	digest_scheme: z.literal(digestScheme),
	digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
}).strict();
export type HarnessFingerprint = z.infer<typeof HarnessFingerprint>;

/** The fingerprint of a valid Harness: key order cannot change it, the value of any field does. */
export function fingerprintHarness(harness: Harness): HarnessFingerprint {
	// Parsing first: the digest is over the harness as the engine would run it, never over a value it would refuse.
	return {schema: harnessSchemaVersion, digest_scheme: digestScheme, digest: digestJson(Harness.parse(harness))};
}
