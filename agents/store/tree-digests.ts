import {readlink} from 'node:fs/promises';
import {join} from 'node:path';
import {digestFile, digestJson, type Digest} from '../../files/digest.js';
import {derivedDigest} from '../../files/file-digest.js';
import {stampsKey} from '../../files/stamps-key.js';
import {walkTree, type WalkedFile} from '../../files/walk-tree.js';

/** The installed tree of a store folder: everything npm put in node_modules/, the package and its dependencies alike. */
export const treeFolder = 'node_modules';

/**
 * Every file under the folder's node_modules/, by its path from the store folder: a regular file by its bytes,
 * a symbolic link by its target (never followed), so a bin link pointed elsewhere changes the digest too.
 */
export async function treeDigests(dir: string): Promise<Record<string, string>> {
	return tableOf(await treeFiles(dir));
}

/** The installed package's digest: over the sorted file table, so two equal trees always agree. */
export function treeDigest(files: Record<string, string>): Digest {
	return digestJson(files);
}

/**
 * The digest of the folder's file table as it is now (treeDigest of treeDigests), taken from the digest cache when no
 * file's stamp moved since it was last computed: a package of 20,000 files is one cache entry and one stat per file.
 */
export async function currentTreeDigest(dir: string): Promise<Digest> {
	const files = await treeFiles(dir);
	const compute = async (): Promise<string> => treeDigest(await tableOf(files));
	const key = stampsKey('agent-tree', files);
	if (key === null) return (await compute()) as Digest;
	return (await derivedDigest(key, compute, () => stampsKey('agent-tree', files) === key)) as Digest;
}

async function treeFiles(dir: string): Promise<WalkedFile[]> {
	return (await walkTree(join(dir, treeFolder))).map(file => ({...file, name: `${treeFolder}/${file.name}`}));
}

/** Each file hashed without an entry of its own in the digest cache: the whole tree has one (currentTreeDigest). */
async function tableOf(files: WalkedFile[]): Promise<Record<string, string>> {
	const table: Record<string, string> = {};
	for (const file of files) table[file.name] = file.link ? `link:${await readlink(file.path)}` : ((await digestFile(file.path, {remember: false})) ?? 'unreadable');
	return table;
}
