import {readFile} from 'node:fs/promises';

/** A file's text, or null when there is no such file (an empty ledger or transcript); every other error is thrown. */
export async function readIfPresent(path: string): Promise<string | null> {
	try {
		return await readFile(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw error;
	}
}
