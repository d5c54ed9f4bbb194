import {constants, type BigIntStats} from 'node:fs';
import {chmod, copyFile, link, mkdir, rename, stat, unlink} from 'node:fs/promises';
import {join} from 'node:path';
import {digestCacheDir} from './digest-cache.js';
import {fileDigest, isSettled} from './file-digest.js';

/** How a pinned copy was made: a clone of the bytes, a hard link to the user's store, or a plain copy. */
export type CopyKind = 'reflink' | 'link' | 'copy';

/** Smaller files are copied: a copy costs less than the store's bookkeeping. */
const storedFromBytes = 1n << 20n;

/**
 * Puts the bytes of `from` at `to` (which must not exist) for the evidence and returns their digest, without copying a
 * large file (a 125 MB Node binary) for every attempt: a reflink where the file system clones, else a hard link to a
 * read-only copy kept once per content in the user's cache (`harness-lab/pinned/<sha256>`; linking `from` itself
 * would move its ctime and so its cached digest), else a copy. The digest is the source's, taken from the digest
 * cache, when the source's stamp is settled and unchanged across the copy; otherwise the copy is hashed.
 */
export async function pinnedCopy(from: string, to: string): Promise<{digest: string; kind: CopyKind}> {
	const before = await stat(from, {bigint: true});
	const digest = await fileDigest(from);
	const kind = await cloneOrLink(from, to, digest, before);
	const after = await stat(from, {bigint: true});
	if (settledAndSame(before, after)) return {digest, kind};
	return {digest: await fileDigest(to), kind};
}

async function cloneOrLink(from: string, to: string, digest: string, info: BigIntStats): Promise<CopyKind> {
	try {
		await copyFile(from, to, constants.COPYFILE_FICLONE_FORCE | constants.COPYFILE_EXCL);
		return 'reflink';
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
	}
	if (info.size >= storedFromBytes) {
		try {
			await link(await storedCopy(from, digest, info), to);
			return 'link';
		} catch (error) {
			// Another file system (EXDEV), or a store that cannot be written: a copy.
			if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
		}
	}
	await copyFile(from, to, constants.COPYFILE_EXCL);
	return 'copy';
}

/** The store's read-only copy of these bytes, made once (atomically, checked against the digest) for every later link. */
async function storedCopy(from: string, digest: string, info: BigIntStats): Promise<string> {
	const dir = join(digestCacheDir(), 'pinned');
	const stored = join(dir, digest.replace('sha256:', ''));
	const existing = await stat(stored, {bigint: true}).catch(() => null);
	if (existing !== null && existing.isFile() && existing.size === info.size) return stored;
	await mkdir(dir, {recursive: true, mode: 0o700});
	const temp = `${stored}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
	try {
		await copyFile(from, temp, constants.COPYFILE_EXCL);
		// The store is trusted by name from here on: what enters it is hashed once.
		if (await fileDigest(temp) !== digest) throw Object.assign(new Error(`${from} changed while it was stored`), {code: 'ECHANGED'});
		// Read-only, keeping the executable bits: every evidence copy is this one file.
		await chmod(temp, Number(info.mode) & 0o555);
		await rename(temp, stored);
	} finally {
		await unlink(temp).catch(() => undefined);
	}
	return stored;
}

function settledAndSame(before: BigIntStats, after: BigIntStats): boolean {
	return before.dev === after.dev && before.ino === after.ino && before.size === after.size
		&& before.mtimeNs === after.mtimeNs && before.ctimeNs === after.ctimeNs && isSettled(after);
}
