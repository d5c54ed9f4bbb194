import {readlink} from 'node:fs/promises';
import {join} from 'node:path';
import {digestFile, digestJson, type Digest} from '../../files/digest.js';
import {walkTree} from '../../files/walk-tree.js';

/** The installed tree of a store folder: everything npm put in node_modules/, the package and its dependencies alike. */
export const treeFolder = 'node_modules';

/**
 * Every file under the folder's node_modules/, by its path from the store folder: a regular file by its bytes,
 * a symbolic link by its target (never followed), so a bin link pointed elsewhere changes the digest too.
 */
export async function treeDigests(dir: string): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	for (const file of await walkTree(join(dir, treeFolder))) {
		const name = `${treeFolder}/${file.name}`;
		files[name] = file.link ? `link:${await readlink(file.path)}` : ((await digestFile(file.path)) ?? 'unreadable');
	}
	return files;
}

/** The installed package's digest: over the sorted file table, so two equal trees always agree. */
export function treeDigest(files: Record<string, string>): Digest {
	return digestJson(files);
}
