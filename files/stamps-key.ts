import {readlinkSync} from 'node:fs';
import {digestBytes} from './digest.js';
import {nowNs, settledStamp} from './file-digest.js';
import type {WalkedFile} from './walk-tree.js';

/**
 * `kind:` and the digest of every entry's name with its settled stamp (a link by its target), or null when one has
 * no settled stamp: the key a digest derived from the whole tree is cached under (see derivedDigest), so a tree of
 * thousands of unchanged files costs one stat each and one cache entry, not one entry per file.
 */
export function stampsKey(kind: string, entries: readonly WalkedFile[]): string | null {
	const now = nowNs();
	const lines: string[] = [];
	for (const entry of entries) {
		const stamp = entry.link ? `link:${readlinkSync(entry.path)}` : settledStamp(entry.path, now);
		if (stamp === null) return null;
		lines.push(JSON.stringify([entry.name, stamp]));
	}
	// One line per entry, sorted: the same entries give the same key in any listing order (canonical JSON of a
	// name-to-stamp object did the same at twice the cost, in every attempt's package fingerprints).
	return `${kind}:${digestBytes(lines.sort().join('\n'))}`;
}
