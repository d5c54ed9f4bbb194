import {cp, readdir, symlink} from 'node:fs/promises';
import {join} from 'node:path';
import {installRoot} from '../../supervisor/plan/install-root.js';

const skipped = new Set(['node_modules', '.git', 'experiments']);

/** Copies this installation (sources and dist/, sharing node_modules) so a test can change a file without touching the repo. */
export async function copyInstallation(dest: string): Promise<string> {
	for (const name of await readdir(installRoot)) {
		if (skipped.has(name)) continue;
		await cp(join(installRoot, name), join(dest, name), {recursive: true});
	}
	await symlink(join(installRoot, 'node_modules'), join(dest, 'node_modules'), 'dir');
	return dest;
}

/** The `hlab eval` entry of an installation. */
export function evalEntry(root: string = installRoot): string {
	return join(root, 'dist', 'test', 'e2e', 'hlab-eval.js');
}
