import {readlink} from 'node:fs/promises';
import {digestBytes, digestFile, digestJson} from '../../files/digest.js';
import {derivedDigest} from '../../files/file-digest.js';
import {readInParallel} from '../../files/read-in-parallel.js';
import {stampsKey} from '../../files/stamps-key.js';
import {walkTreeSync, type WalkedFile} from '../../files/walk-tree.js';

/**
 * Digests of every file under `dir` (recursively), by relative path; a symlink digests its target text.
 * The walk is synchronous: a build has thousands of files, and each folder listed through the thread pool costs
 * several times the listing itself. Its files get no digest-cache entries of their own: a new build is checked later
 * by currentTable's one entry, and a task's workspace is never digested again, so thousands of entries per build or
 * task would only push out the ones other processes read.
 */
export async function digestTree(dir: string, skip: (rel: string) => boolean = () => false): Promise<Record<string, string>> {
	return tableOf(walkTreeSync(dir, {skip}));
}

/**
 * The file table of `dir` as digestTree computes it, or `recorded` itself when the tree's table is that one. A tree
 * whose every stamp is as when its table was last digested is answered from one digest-cache entry (a host build of
 * ~12,000 files: one stat each), and its files are hashed without entries of their own.
 */
export async function currentTable(dir: string, recorded: Record<string, string>, skip: (rel: string) => boolean): Promise<Record<string, string>> {
	const files = walkTreeSync(dir, {skip});
	const key = stampsKey('tree', files);
	let computed: Record<string, string> | null = null;
	const compute = async (): Promise<string> => digestJson((computed = await tableOf(files)));
	const digest = key === null ? await compute() : await derivedDigest(key, compute, () => stampsKey('tree', files) === key);
	return computed ?? (digest === digestJson(recorded) ? recorded : tableOf(files));
}

/** The overall digest of a build: its files and the node binary it names. */
export function buildDigestOf(files: Record<string, string>, node: {path: string; digest: string}): string {
	return digestJson({files, node: {path: node.path, digest: node.digest}});
}

/** Each file hashed without a digest-cache entry of its own: a tree is checked by its one entry (currentTable), if ever. */
async function tableOf(files: WalkedFile[]): Promise<Record<string, string>> {
	const digests = await readInParallel(files, async file => (file.link ? `link:${digestBytes(await readlink(file.path))}` : (await digestFile(file.path, {remember: false})) ?? 'unreadable'));
	return Object.fromEntries(files.map((file, index) => [file.name, digests[index]!]));
}
