import {readlink} from 'node:fs/promises';
import {digestBytes, digestFile, digestJson} from '../../files/digest.js';
import {walkTreeSync} from '../../files/walk-tree.js';

/**
 * Digests of every file under `dir` (recursively), by relative path; a symlink digests its target text.
 * The walk is synchronous: a build has thousands of files, and each folder listed through the thread pool costs
 * several times the listing itself; their digests mostly come from the digest cache for one stat each.
 */
export async function digestTree(dir: string, skip: (rel: string) => boolean = () => false): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const file of walkTreeSync(dir, {skip})) {
		out[file.name] = file.link ? `link:${digestBytes(await readlink(file.path))}` : (await digestFile(file.path)) ?? 'unreadable';
	}
	return out;
}

/** The overall digest of a build: its files and the node binary it names. */
export function buildDigestOf(files: Record<string, string>, node: {path: string; digest: string}): string {
	return digestJson({files, node: {path: node.path, digest: node.digest}});
}
