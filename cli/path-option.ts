import {resolve} from 'node:path';

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
