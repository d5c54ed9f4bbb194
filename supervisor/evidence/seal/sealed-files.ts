import {lstatSync, readFileSync, readlinkSync} from 'node:fs';
import {isAbsolute, join, relative, resolve} from 'node:path';
import {digestBytes} from '../../../files/digest.js';
import {walkTreeSync} from '../../../files/walk-tree.js';

/**
 * Every file below each cited evidence path (a file, or a folder such as a kept workspace), relative to the evidence
 * directory, with its digest. The bytes are hashed here, never taken from the digest cache: the cache is writable by
 * the same code the seal must detect. A link is sealed as its target's name, never followed. A file the supervisor
 * has just written itself is sealed by the digest of the bytes it wrote (`written`, by the same relative name), not read
 * back: what the seal vouches for is then what the supervisor wrote, even if something changed the file in between.
 */
export function sealedFiles(evidenceDir: string, cited: Record<string, string>, written: ReadonlyMap<string, string> = new Map()): Record<string, string> {
	const files: Record<string, string> = {};
	for (const rel of Object.values(cited).sort()) {
		const path = inside(evidenceDir, rel);
		if (path === null) continue;
		const known = written.get(rel);
		if (known !== undefined) {
			files[rel] = known;
			continue;
		}
		for (const [name, digest] of filesBelow(path, rel)) files[name] = digest;
	}
	// By code point, not localeCompare (ICU, the function's main cost): the MAC is over canonical JSON, so the order is only the line's.
	return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** What changed since a record sealed its files: each a sentence naming the file. */
export function changedFiles(evidenceDir: string, sealed: Record<string, string>): string[] {
	const changed: string[] = [];
	for (const [rel, digest] of Object.entries(sealed)) {
		const path = inside(evidenceDir, rel);
		const now = path === null ? null : digestOf(path);
		if (now === null) changed.push(`${rel} is missing`);
		else if (now !== digest) changed.push(`${rel} changed since it was sealed`);
	}
	return changed;
}

function inside(evidenceDir: string, rel: string): string | null {
	const path = resolve(evidenceDir, rel);
	return isAbsolute(rel) || relative(evidenceDir, path).startsWith('..') ? null : path;
}

function filesBelow(path: string, rel: string): Array<[string, string]> {
	const one = digestOf(path);
	if (one !== null) return [[rel, one]];
	return walkTreeSync(path).flatMap(file => {
		const digest = digestOf(file.path);
		return digest === null ? [] : [[`${rel}/${file.name}`, digest] as [string, string]];
	});
}

/** A regular file's digest, a link's (over its target's name), null for a folder or nothing. */
function digestOf(path: string): string | null {
	try {
		const info = lstatSync(path);
		if (info.isSymbolicLink()) return digestBytes(`link:${readlinkSync(path)}`);
		return info.isFile() ? digestBytes(readFileSync(path)) : null;
	} catch {
		return null;
	}
}
