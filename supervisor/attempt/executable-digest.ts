import {stat} from 'node:fs/promises';
import {digestFile} from '../../files/digest.js';

const known = new Map<string, Promise<string | null>>();

/** The digest of an executable, hashed once per process for the same file (inode, size and mtime unchanged). */
export async function executableDigest(path: string): Promise<string | null> {
	let key: string;
	try {
		const info = await stat(path);
		key = `${path}\0${info.ino}\0${info.size}\0${info.mtimeMs}`;
	} catch {
		return null;
	}
	let digest = known.get(key);
	if (digest === undefined) {
		digest = digestFile(path);
		known.set(key, digest);
	}
	return digest;
}
