import {copyFileSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, symlinkSync, unlinkSync} from 'node:fs';
import {join} from 'node:path';
import {removeTree} from './remove-tree.js';

/**
 * Moves a file or folder to a new path (which must not exist): a rename, or, when it sits on another file system
 * (a tmpfs), a copy that is complete before the original goes. Symbolic links are copied as links, never followed;
 * what is neither a file, a folder nor a link (a FIFO, a socket) cannot hold evidence and is left out.
 */
export function moveTree(from: string, to: string): void {
	try {
		renameSync(from, to);
		return;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
	}
	copyTree(from, to);
	if (lstatSync(from).isDirectory()) removeTree(from);
	else unlinkSync(from);
}

function copyTree(from: string, to: string): void {
	const info = lstatSync(from);
	if (info.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
	else if (info.isFile()) copyFileSync(from, to, 0);
	else if (info.isDirectory()) {
		mkdirSync(to, {mode: info.mode & 0o7777});
		for (const name of readdirSync(from)) copyTree(join(from, name), join(to, name));
	}
}
