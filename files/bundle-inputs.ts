import {readFileSync} from 'node:fs';
import {join} from 'node:path';

/**
 * The bundle's chunks (dist/bundle/, scripts/bundle.mjs) that hold any of `files` (compiled files named relative to the
 * installation, `dist/tasks/index.js`), named the same way: the code that runs them when `hlab` runs from the bundle.
 * None when the installation has no bundle.
 */
export function bundleChunksHolding(root: string, files: readonly string[]): string[] {
	let chunkOf: Record<string, string>;
	try {
		chunkOf = JSON.parse(readFileSync(join(root, 'dist', 'bundle', 'inputs.json'), 'utf8')) as Record<string, string>;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
	return [...new Set(files.filter(file => Object.hasOwn(chunkOf, file)).map(file => chunkOf[file]!))].sort();
}
