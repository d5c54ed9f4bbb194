import {lstat, readdir, readlink} from 'node:fs/promises';
import {join, relative, sep} from 'node:path';
import {digestBytes, digestFile, digestJson} from '../../files/digest.js';

/** Digests of every file under `dir` (recursively), by relative path; a symlink digests its target text. */
export async function digestTree(dir: string, skip: (rel: string) => boolean = () => false): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	const names = (await readdir(dir, {recursive: true})).map(name => name.split(sep).join('/')).sort();
	for (const name of names) {
		if (skip(name)) continue;
		const path = join(dir, name);
		const stat = await lstat(path);
		if (stat.isSymbolicLink()) out[name] = `link:${digestBytes(await readlink(path))}`;
		else if (stat.isFile()) out[name] = (await digestFile(path)) ?? 'unreadable';
	}
	return out;
}

/** The overall digest of a build: its files and the node binary it names. */
export function buildDigestOf(files: Record<string, string>, node: {path: string; digest: string}): string {
	return digestJson({files, node: {path: node.path, digest: node.digest}});
}

export function relativeName(root: string, path: string): string {
	return relative(root, path).split(sep).join('/');
}
