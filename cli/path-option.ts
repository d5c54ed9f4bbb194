import {existsSync} from 'node:fs';
import {dirname, relative, resolve} from 'node:path';
import {UsageError} from '../supervisor/input-error.js';

/**
 * Commander's parser for every path flag: a relative path is resolved against the caller's working directory
 * here, once, because later stages run children in folders of their own where it would name something else.
 */
export function absolutePath(value: string): string {
	return resolve(value);
}

/** A comma list of paths, each resolved like `absolutePath`; empty entries are dropped. */
export function absolutePaths(value: string): string[] {
	return value.split(',').map(path => path.trim()).filter(path => path.length > 0).map(absolutePath);
}

/**
 * The parser of every flag that names an output folder or file (`--out` and its old names): resolved like
 * `absolutePath`, and refused when its parent folder does not exist, so a typo never grows a tree of folders.
 */
export function outputPath(value: string): string {
	const path = absolutePath(value);
	const parent = dirname(path);
	if (!existsSync(parent)) throw new UsageError(`${value}: its parent folder ${parent} does not exist (create it first, e.g. mkdir -p ${relativeName(parent)})`);
	return path;
}

function relativeName(path: string): string {
	const rel = relative(process.cwd(), path);
	return rel === '' || rel.startsWith('..') ? path : rel;
}
