import {createHash} from 'node:crypto';
import {constants} from 'node:fs';
import {open} from 'node:fs/promises';

/**
 * `sha256:<hex>` of a regular file's bytes, read in chunks so a large executable does not sit in memory.
 * Anything else (a FIFO, a device, a directory) is refused with code `ENOTREG`, since it could block or never end.
 */
export async function fileDigest(path: string): Promise<string> {
	// Non-blocking, so that opening a FIFO returns at once instead of waiting for a writer.
	const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
	try {
		if (!(await handle.stat()).isFile()) throw Object.assign(new Error(`${path} is not a regular file`), {code: 'ENOTREG', path});
		const hash = createHash('sha256');
		for await (const chunk of handle.createReadStream({highWaterMark: 1 << 20, autoClose: false})) hash.update(chunk as Buffer);
		return `sha256:${hash.digest('hex')}`;
	} finally {
		await handle.close();
	}
}
