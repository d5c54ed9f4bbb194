import {readlinkSync} from 'node:fs';
import {digestJson} from './digest.js';
import {settledStamp} from './file-digest.js';
import type {WalkedFile} from './walk-tree.js';

/**
 * `kind:` and the digest of every entry's name with its settled stamp (a link by its target), or null when one has
 * no settled stamp: the key a digest derived from the whole tree is cached under (see derivedDigest), so a tree of
 * thousands of unchanged files costs one stat each and one cache entry, not one entry per file.
 */
export function stampsKey(kind: string, entries: readonly WalkedFile[]): string | null {
	const stamps: Record<string, string> = {};
	for (const entry of entries) {
		const stamp = entry.link ? `link:${readlinkSync(entry.path)}` : settledStamp(entry.path);
		if (stamp === null) return null;
		stamps[entry.name] = stamp;
	}
	return `${kind}:${digestJson(stamps)}`;
}
