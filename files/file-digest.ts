import {createHash} from 'node:crypto';
import {constants} from 'node:fs';
import {open} from 'node:fs/promises';

/** A file's bytes are trusted unchanged only if its inode metadata is identical and was already old when hashed. */
interface KnownDigest {
	stamp: string;
	digest: string;
}

const known = new Map<string, KnownDigest>();
/** A change within this long before hashing could share its timestamp tick with the hashed state ("racy" entries). */
const settledNs = 2_000_000_000n;
/** Larger files are read in chunks of this size so that they never sit in memory whole. */
const chunkBytes = 1n << 20n;

/**
 * `sha256:<hex>` of a regular file's bytes, read in chunks so a large executable does not sit in memory.
 * Anything else (a FIFO, a device, a directory) is refused with code `ENOTREG`, since it could block or never end.
 * A file hashed before is not read again while its device, inode, size, mtime and ctime are unchanged and its
 * ctime was settled when it was hashed: every write moves ctime past the hash time, which no user can set back.
 */
export async function fileDigest(path: string): Promise<string> {
	// Non-blocking, so that opening a FIFO returns at once instead of waiting for a writer.
	const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
	try {
		const info = await handle.stat({bigint: true});
		if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), {code: 'ENOTREG', path});
		const stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
		const cached = known.get(path);
		if (cached?.stamp === stamp) return cached.digest;
		const hashedAt = BigInt(Date.now()) * 1_000_000n;
		const hash = createHash('sha256');
		// Most files are small: one read of the whole file costs far less than a stream and its 1 MiB buffers.
		if (info.size <= chunkBytes) hash.update(await handle.readFile());
		else for await (const chunk of handle.createReadStream({highWaterMark: Number(chunkBytes), autoClose: false})) hash.update(chunk as Buffer);
		const digest = `sha256:${hash.digest('hex')}`;
		if (hashedAt - info.ctimeNs > settledNs && hashedAt - info.mtimeNs > settledNs) known.set(path, {stamp, digest});
		else known.delete(path);
		return digest;
	} finally {
		await handle.close();
	}
}
