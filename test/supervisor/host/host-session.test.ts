import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {digestFile} from '../../../files/digest.js';
import {closeHostSession, openHostSession} from '../../../supervisor/host/index.js';
import {buildDigestOf} from '../../../supervisor/source/tree-digest.js';
import {truthful, writeSyntheticHost} from './synthetic-host.js';

const planDigest = `sha256:${'a'.repeat(64)}`;

/** A minimal build folder as build-host lays one out: a launcher, one more file, and build.json naming them and node. */
async function writeBuild(dir: string): Promise<string> {
	await mkdir(dir);
	const launcher = join(dir, 'hlab');
	await writeFile(launcher, `#!/bin/sh\nexec '${process.execPath}' "$@"\n`);
	await chmod(launcher, 0o755);
	await writeFile(join(dir, 'engine.js'), 'export const engine = 1;\n');
	const files = {'engine.js': (await digestFile(join(dir, 'engine.js')))!, hlab: (await digestFile(launcher))!};
	const node = {path: process.execPath, digest: (await digestFile(process.execPath))!, version: process.version};
	await writeFile(join(dir, 'build.json'), JSON.stringify({
		schema: 'harness-lab/host-build@1', built_at: new Date().toISOString(),
		source: {root: dir, commit: 'test', dirty: false, source_digest: planDigest}, launcher: 'hlab', node, files,
		packages: {lock_digest: planDigest, copied: []}, compiler: {argv: [], wall_ms: 0}, digest: buildDigestOf(files, node),
	}));
	return launcher;
}

t.test('a build is verified file by file when the session opens; at its close a changed launcher is still found', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	t.teardown(() => rm(root, {recursive: true, force: true}));
	const exe = await writeBuild(join(root, 'build'));
	const session = await openHostSession({artifacts: join(root, 'a'), exe, planDigest, taskIds: ['x']});
	t.equal(session.identity.kind, 'build');
	t.same(session.identity.problems, [], 'every file matches build.json');
	t.same(Object.keys(session.entryPoints).sort(), [exe, join(root, 'build', 'build.json'), process.execPath].sort(), 'launcher, build.json and node are the entry points');
	t.equal((await closeHostSession(session)).closed?.binary_unchanged, true);

	const changed = await openHostSession({artifacts: join(root, 'b'), exe, planDigest, taskIds: ['x']});
	await writeFile(exe, '#!/bin/sh\necho replaced\n');
	const closed = (await closeHostSession(changed)).closed!;
	t.equal(closed.binary_unchanged, false, 'a launcher replaced during the attempt is found at its close');
	t.not(closed.binary_digest, changed.identity.digest, 'and measured anew in full');
});

t.test('a single-file host is measured again whole at the close', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	t.teardown(() => rm(root, {recursive: true, force: true}));
	const exe = await writeSyntheticHost(root, 'host', truthful);
	const session = await openHostSession({artifacts: join(root, 'a'), exe, planDigest, taskIds: ['x']});
	t.equal(session.identity.kind, 'file');
	await writeFile(exe, '#!/bin/sh\necho replaced\n');
	const closed = (await closeHostSession(session)).closed!;
	t.equal(closed.binary_unchanged, false);
	t.equal(closed.binary_digest, await digestFile(exe));
});
