import {createHash} from 'node:crypto';
import {constants, statSync} from 'node:fs';
import {open} from 'node:fs/promises';
import {DigestCache, digestCachePath} from './digest-cache.js';

let cache: DigestCache | null = null;
/** Digests being computed now, by stamp: two callers hashing the same large file share one read. */
const pending = new Map<string, Promise<string>>();
/** A change within this long before hashing could share its timestamp tick with the hashed state ("racy" entries). */
const settledNs = 2_000_000_000n;
/** Larger files are read in chunks of this size so that they never sit in memory whole. */
const chunkBytes = 1n << 20n;

/**
 * `sha256:<hex>` of a regular file's bytes, read in chunks so a large executable does not sit in memory.
 * Anything else (a FIFO, a device, a directory) is refused with code `ENOTREG`, since it could block or never end.
 * A file hashed before (by this process or another, see digest-cache.ts) is not read again while its device, inode,
 * size, mtime and ctime are unchanged and its ctime was settled when it was hashed: every write moves ctime past the
 * hash time, which no user can set back. A known file costs one stat.
 * `remember: false` hashes without filing the file's own entry: for a tree whose whole is cached (see stampsKey), where
 * thousands of per-file entries would only push other entries out of the cache.
 */
export async function fileDigest(path: string, {remember = true}: {remember?: boolean} = {}): Promise<string> {
	// Synchronous: a stat answers in microseconds, a trip through the thread pool costs ten times that, per file of a build.
	const info = statSync(path, {bigint: true});
	if (!info.isFile()) throw notRegular(path);
	const stamp = stampOf(info);
	const known = sharedCache().get(stamp);
	if (known !== undefined) return `sha256:${known}`;
	let hashing = pending.get(stamp);
	if (hashing === undefined) {
		hashing = hashFile(path, remember ? sharedCache() : null).finally(() => pending.delete(stamp));
		pending.set(stamp, hashing);
	}
	return hashing;
}

function sharedCache(): DigestCache {
	cache ??= new DigestCache(digestCachePath());
	return cache;
}

/**
 * The stamp fileDigest keys a regular file by, or null when the path is not one or changed too recently to trust its
 * stamp (see settledNs): what a digest derived from many files is cached under (see derivedDigest).
 */
export function settledStamp(path: string, now: bigint = nowNs()): string | null {
	try {
		const info = statSync(path, {bigint: true});
		if (!info.isFile() || !isSettled(info, now)) return null;
		return stampOf(info);
	} catch {
		return null;
	}
}

/** The clock settledStamp compares with, in nanoseconds: a caller stamping many files reads it once. */
export function nowNs(): bigint {
	return BigInt(Date.now()) * 1_000_000n;
}

/** Neither the bytes nor the inode changed in the last settledNs before `now`: the stamp cannot be shared with a write still to come. */
export function isSettled(info: {mtimeNs: bigint; ctimeNs: bigint}, now: bigint = nowNs()): boolean {
	return now - info.ctimeNs > settledNs && now - info.mtimeNs > settledNs;
}

/**
 * A digest computed from files whose settled stamps (and anything else the caller puts in `key`) are `key`, kept in the
 * same cache as files' own: a package whose files all keep their stamps costs one stat per file, and one cache entry
 * instead of one per file, so a few checkouts' packages fit in the cache together. The caller checks the stamps again
 * after computing, so that a file changed meanwhile is never filed under its old stamp.
 */
export async function derivedDigest(key: string, compute: () => Promise<string>, unchanged: () => boolean): Promise<string> {
	const known = sharedCache().get(key);
	if (known !== undefined) return `sha256:${known}`;
	const digest = await compute();
	if (unchanged()) sharedCache().set(key, digest.slice('sha256:'.length));
	return digest;
}

function stampOf(info: {dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint}): string {
	return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

function notRegular(path: string): Error {
	return Object.assign(new Error(`${path} is not a regular file`), {code: 'ENOTREG', path});
}

async function hashFile(path: string, known: DigestCache | null): Promise<string> {
	// Non-blocking, so that opening a FIFO put in the file's place since the stat returns at once.
	const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
	try {
		// The stamp of what is read, not of what was stat'ed a moment ago: the file may have changed between.
		const info = await handle.stat({bigint: true});
		if (!info.isFile()) throw notRegular(path);
		const hashedAt = nowNs();
		const hash = createHash('sha256');
		// Most files are small: one read of the whole file costs far less than a stream and its 1 MiB buffers.
		if (info.size <= chunkBytes) hash.update(await handle.readFile());
		else for await (const chunk of handle.createReadStream({highWaterMark: Number(chunkBytes), autoClose: false})) hash.update(chunk as Buffer);
		const hex = hash.digest('hex');
		if (known !== null && isSettled(info, hashedAt)) known.set(stampOf(info), hex);
		return `sha256:${hex}`;
	} finally {
		await handle.close();
	}
}
