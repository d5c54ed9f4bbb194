import {existsSync, realpathSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {sha256} from '../files/sha256.js';

export interface BinaryIdentity {
	path: string;
	digest: string;
}

/**
 * How a host names itself: a build folder (build.json at the installation root) by its launcher and overall
 * build digest; any other installation by the real path of the script that started it and that file's digest.
 * This is the worker's claim; the supervisor measures the build itself before and after the attempt.
 */
export async function selfIdentity(installRoot: string, entryScript: string): Promise<BinaryIdentity> {
	const record = join(installRoot, 'build.json');
	if (existsSync(record)) {
		const build = JSON.parse(await readFile(record, 'utf8')) as {launcher?: unknown; digest?: unknown};
		if (typeof build.launcher === 'string' && typeof build.digest === 'string') return {path: join(installRoot, build.launcher), digest: build.digest};
	}
	const path = realpathSync(entryScript);
	return {path, digest: sha256(await readFile(path))};
}
