import {chmod, mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {digestFile} from '../../../files/digest.js';
import {buildDigestOf} from '../../../supervisor/source/tree-digest.js';

const sourceDigest = `sha256:${'a'.repeat(64)}`;

/**
 * A minimal build folder as build-host lays one out: the launcher `hlab` (a shell script, `launcher` its body), more
 * files, and build.json naming them and node. Returns the launcher's path.
 */
export async function writeBuildFolder(dir: string, launcher: string, files: Record<string, string>): Promise<string> {
	await mkdir(dir);
	const launcherPath = join(dir, 'hlab');
	await writeFile(launcherPath, `#!/bin/sh\n${launcher}`);
	await chmod(launcherPath, 0o755);
	for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
	const digests: Record<string, string> = {hlab: (await digestFile(launcherPath))!};
	for (const name of Object.keys(files)) digests[name] = (await digestFile(join(dir, name)))!;
	const node = {path: process.execPath, digest: (await digestFile(process.execPath))!, version: process.version};
	await writeFile(join(dir, 'build.json'), JSON.stringify({
		schema: 'harness-lab/host-build@1', built_at: new Date().toISOString(),
		source: {root: dir, commit: 'test', dirty: false, source_digest: sourceDigest}, launcher: 'hlab', node, files: digests,
		packages: {lock_digest: sourceDigest, copied: []}, compiler: {argv: [], wall_ms: 0}, digest: buildDigestOf(digests, node),
	}));
	return launcherPath;
}
