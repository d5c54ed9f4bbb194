import {readlink} from 'node:fs/promises';
import {digestBytes, digestFile, digestJson} from '../../files/digest.js';
import {walkTree} from '../../files/walk-tree.js';

/** Digests of every file under `dir` (recursively), by relative path; a symlink digests its target text. */
export async function digestTree(dir: string, skip: (rel: string) => boolean = () => false): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const file of await walkTree(dir, {skip})) {
		out[file.name] = file.link ? `link:${digestBytes(await readlink(file.path))}` : (await digestFile(file.path)) ?? 'unreadable';
	}
	return out;
}

/** The overall digest of a build: its files and the node binary it names. */
export function buildDigestOf(files: Record<string, string>, node: {path: string; digest: string}): string {
	return digestJson({files, node: {path: node.path, digest: node.digest}});
}
