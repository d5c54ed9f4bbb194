import {constants} from 'node:fs';
import {open} from 'node:fs/promises';

class NotRegularFileError extends Error {
	readonly code = 'not a regular file';
}

/** A file's text, refusing anything but a regular file: a FIFO named report.json must not hang the listing (opened non-blocking, checked, then read). */
export async function readRegularFile(path: string): Promise<string> {
	const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
	try {
		if (!(await handle.stat()).isFile()) throw new NotRegularFileError(path);
		return await handle.readFile('utf8');
	} finally {
		await handle.close();
	}
}
