import {sha256} from './sha256.js';
import {fileDigest} from './file-digest.js';
import {canonicalJson} from './canonical-json.js';

/** The version of the digest scheme; a plan records it so a future scheme cannot be confused with this one. */
export const digestScheme = 'harness-lab/sha256-canonical-json@1';

export type Digest = `sha256:${string}`;

export function digestBytes(bytes: string | Uint8Array): Digest {
	return sha256(bytes) as Digest;
}

/** The digest of a JSON value: sha256 over its canonical JSON. */
export function digestJson(value: unknown): Digest {
	return digestBytes(canonicalJson(value));
}

/** The digest of a regular file's bytes (streamed), or null when it cannot be read; `remember` as fileDigest's. */
export async function digestFile(path: string, options?: {remember?: boolean}): Promise<Digest | null> {
	try {
		return (await fileDigest(path, options)) as Digest;
	} catch {
		return null;
	}
}
