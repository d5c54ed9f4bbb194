import {readdirSync, rmdirSync, rmSync, unlinkSync} from 'node:fs';
import {join} from 'node:path';

/**
 * Removes a directory tree: each folder is listed once, its files unlinked and the folder removed when empty.
 * fs.rm tries to remove every folder before listing it, which doubles the folder calls; on any surprise it takes over.
 */
export function removeTree(dir: string): void {
	try {
		removeListed(dir);
	} catch {
		rmSync(dir, {recursive: true, force: true, maxRetries: 2});
	}
}

function removeListed(dir: string): void {
	for (const entry of readdirSync(dir, {withFileTypes: true})) {
		const path = join(dir, entry.name);
		// A symbolic link is unlinked, never followed.
		if (entry.isDirectory()) removeListed(path);
		else unlinkSync(path);
	}
	rmdirSync(dir);
}
