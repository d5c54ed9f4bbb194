import {existsSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The directory holding harness-lab's package.json; compiled code lives in dist/, so walk up from here. */
export function findProjectRoot(from = dirname(fileURLToPath(import.meta.url))): string {
	for (let dir = from; ; dir = dirname(dir)) {
		if (existsSync(join(dir, 'package.json'))) return dir;
		if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
	}
}

export const projectRoot = findProjectRoot();
