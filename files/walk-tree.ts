import {readdirSync, type Dirent} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {join} from 'node:path';

/** A file found under a folder: its path, its name relative to the folder (always with `/`), and whether it is a symbolic link. */
export interface WalkedFile {
	path: string;
	name: string;
	link: boolean;
}

export interface WalkOptions {
	/** Keep only names ending in one of these (e.g. `.js`); declaration files are never source. */
	suffixes?: string[];
	/** Leave out a name (relative, with `/`). */
	skip?: (name: string) => boolean;
}

// Each folder is listed on its own: readdirSync's `recursive` descends into linked folders, and a link must never be followed.

/** The one tree walker: every regular file and symbolic link below `dir` (links are never followed), sorted by name; a missing folder has none. */
export async function walkTree(dir: string, options: WalkOptions = {}): Promise<WalkedFile[]> {
	const found: WalkedFile[] = [];
	const visit = async (folder: string, prefix: string): Promise<void> => {
		const entries = await readdir(folder, {withFileTypes: true}).catch(() => [] as Dirent[]);
		for (const entry of entries) {
			if (entry.isDirectory()) await visit(join(folder, entry.name), `${prefix}${entry.name}/`);
			else keep(found, folder, prefix, entry);
		}
	};
	await visit(dir, '');
	return select(found, options);
}

/** The same walk, synchronously, for paths that run before anything asynchronous may (task setup in a worker). */
export function walkTreeSync(dir: string, options: WalkOptions = {}): WalkedFile[] {
	return walkTreeSyncUpTo(dir, Infinity, options)!;
}

/** The synchronous walk, given up (null) once it has found more than `limit` files: a caller that only walks small trees so. */
export function walkTreeSyncUpTo(dir: string, limit: number, options: WalkOptions = {}): WalkedFile[] | null {
	const found: WalkedFile[] = [];
	const visit = (folder: string, prefix: string): boolean => {
		let entries: Dirent[];
		try {
			entries = readdirSync(folder, {withFileTypes: true});
		} catch {
			return true;
		}
		for (const entry of entries) {
			const within = entry.isDirectory() ? visit(join(folder, entry.name), `${prefix}${entry.name}/`) : keep(found, folder, prefix, entry) <= limit;
			if (!within) return false;
		}
		return true;
	};
	return visit(dir, '') ? select(found, options) : null;
}

/** Keeps a file or a link; the count found so far. */
function keep(found: WalkedFile[], folder: string, prefix: string, entry: Dirent): number {
	if (entry.isFile() || entry.isSymbolicLink()) found.push({path: join(folder, entry.name), name: `${prefix}${entry.name}`, link: entry.isSymbolicLink()});
	return found.length;
}

function select(found: WalkedFile[], {suffixes, skip}: WalkOptions): WalkedFile[] {
	return found
		.filter(file => !suffixes || (suffixes.some(suffix => file.name.endsWith(suffix)) && !file.name.endsWith('.d.ts')))
		.filter(file => !skip?.(file.name))
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
