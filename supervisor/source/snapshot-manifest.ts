import {z} from 'zod';
import {UntrackedFile} from './checkout-state.js';

export const snapshotSchema = 'harness-lab/source-snapshot@1';

/** `snapshot.json`, the first entry of a source archive: what the archive claims and the digest of every part. */
export const SnapshotManifest = z.object({
	schema: z.literal(snapshotSchema),
	created_at: z.string(),
	/** Where the checkout was when the snapshot was taken (informative only). */
	root: z.string(),
	commit: z.string(),
	dirty: z.boolean(),
	/** `git diff HEAD --binary`, stored as `head.diff`. */
	diff: z.object({path: z.literal('head.diff'), size: z.number().int().nonnegative(), digest: z.string()}),
	/** Untracked, not-ignored files, stored under `untracked/`. */
	untracked: z.array(UntrackedFile),
	/** The source identity shared with build.json (see `sourceDigest`). */
	source_digest: z.string(),
});
export type SnapshotManifest = z.infer<typeof SnapshotManifest>;

/** The archive member holding an untracked file. */
export function untrackedMember(path: string): string {
	return `untracked/${path}`;
}
