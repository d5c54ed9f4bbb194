import {readdir, readlink} from 'node:fs/promises';
import {join, relative, sep} from 'node:path';
import {digestFile, digestJson, type Digest} from '../../files/digest.js';

/** Files hashed at once: enough to overlap disk and hashing, far below any open-file limit. */
const parallelReads = 16;

/**
 * The digest of an installed package's folder: every file by relative name (symbolic links by their target),
 * so any edit, added or removed file changes it. Nested node_modules are other packages, fingerprinted on their own.
 */
export async function packageDigest(dir: string): Promise<Digest> {
	const entries = await listPackage(dir);
	const files: Record<string, string | null> = {};
	let next = 0;
	const reader = async (): Promise<void> => {
		while (next < entries.length) {
			const entry = entries[next++]!;
			files[entry.name] = entry.link ? `link:${await readlink(entry.path)}` : await digestFile(entry.path);
		}
	};
	await Promise.all(Array.from({length: parallelReads}, reader));
	return digestJson(files);
}

interface PackageEntry {
	name: string;
	path: string;
	link: boolean;
}

async function listPackage(dir: string, top = dir): Promise<PackageEntry[]> {
	const out: PackageEntry[] = [];
	for (const entry of await readdir(dir, {withFileTypes: true})) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) {
			if (entry.name !== 'node_modules') out.push(...await listPackage(path, top));
		} else {
			out.push({name: relative(top, path).split(sep).join('/'), path, link: entry.isSymbolicLink()});
		}
	}
	return out;
}
