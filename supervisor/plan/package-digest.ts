import {readdirSync, readlinkSync} from 'node:fs';
import {join} from 'node:path';
import {digestFile, digestJson, type Digest} from '../../files/digest.js';
import {derivedDigest} from '../../files/file-digest.js';
import {readInParallel} from '../../files/read-in-parallel.js';
import {stampsKey} from '../../files/stamps-key.js';
import type {WalkedFile} from '../../files/walk-tree.js';

/**
 * What Node never loads as code from an installed package, left out: type declarations and TypeScript sources (Node strips no
 * types under node_modules), source maps (read for a stack trace's text alone) and Markdown documents. Here that is 60% of the
 * 8,300 files the installation's packages hold, each a stat at every admission (bench/README.md, "fingerprints of
 * what runs"). Every file a package can load still counts: its scripts, JSON, native addons, data such as bullmq's Lua.
 */
const neverRun = /\.(?:[cm]?ts|map|md)$/;

/**
 * The digest of an installed package's folder: every file Node can load by relative name (symbolic links by their
 * target), so any edit, added or removed such file changes it. Nested node_modules are other packages, fingerprinted on their own.
 */
export async function packageDigest(dir: string): Promise<Digest> {
	const entries = listPackage(dir);
	const key = stampsKey('package', entries);
	// A file not regular or not settled leaves nothing to key the whole by: each file is digested, as a changed package's are.
	if (key === null) return hashEach(entries);
	return (await derivedDigest(key, () => hashEach(entries), () => stampsKey('package', listPackage(dir)) === key)) as Digest;
}

async function hashEach(entries: WalkedFile[]): Promise<Digest> {
	const digests = await readInParallel(entries, async entry => (entry.link ? `link:${readlinkSync(entry.path)}` : digestFile(entry.path, {remember: false})));
	return digestJson(Object.fromEntries(entries.map((entry, index) => [entry.name, digests[index]])));
}

/**
 * Synchronous: ~450 folders and ~5,000 files across an install list in ~20 ms this way, against 130–500 ms through the
 * thread pool, one round trip per folder (measured); a known file then costs its digest's one stat (see fileDigest).
 */
function listPackage(dir: string, prefix = ''): WalkedFile[] {
	const out: WalkedFile[] = [];
	for (const entry of readdirSync(dir, {withFileTypes: true})) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) {
			if (entry.name !== 'node_modules') out.push(...listPackage(path, `${prefix}${entry.name}/`));
		} else if (!neverRun.test(entry.name)) {
			out.push({name: `${prefix}${entry.name}`, path, link: entry.isSymbolicLink()});
		}
	}
	return out;
}
