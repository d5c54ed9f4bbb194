import {cp, readdir, symlink} from 'node:fs/promises';
import {basename, join} from 'node:path';
import {installRoot} from '../../files/install-root.js';

const skipped = new Set(['node_modules', '.git', 'experiments']);
/** Ignored folders that can be large: the bench's promptfoo install, any nested node_modules. */
const skippedAnywhere = new Set(['node_modules', '.peer']);

/** Copies this installation (sources and dist/, sharing node_modules) so a test can change a file without touching the repo. */
export async function copyInstallation(dest: string): Promise<string> {
	for (const name of await readdir(installRoot)) {
		if (skipped.has(name)) continue;
		await cp(join(installRoot, name), join(dest, name), {recursive: true, filter: source => !skippedAnywhere.has(basename(source))});
	}
	await symlink(join(installRoot, 'node_modules'), join(dest, 'node_modules'), 'dir');
	return dest;
}

/** The `hlab` launcher of an installation, run as a user runs it (tests pass `eval` and its flags). */
export function evalEntry(root: string = installRoot): string {
	return join(root, 'bin', 'hlab.js');
}
