import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {digestFile} from '../../../files/digest.js';
import {closeHostSession, openHostSession} from '../../../supervisor/host/index.js';
import {writeBuildFolder} from './build-folder.js';
import {truthful, writeSyntheticHost} from './synthetic-host.js';

const planDigest = `sha256:${'a'.repeat(64)}`;

/** A build of a launcher and one more file, engine.js. */
function writeBuild(dir: string): Promise<string> {
	return writeBuildFolder(dir, `exec '${process.execPath}' "$@"\n`, {'engine.js': 'export const engine = 1;\n'});
}

t.test('a build is verified file by file when the session opens, and again at its close: a changed launcher or any other file is found', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-host-'));
	t.teardown(() => rm(root, {recursive: true, force: true}));
	const exe = await writeBuild(join(root, 'build'));
	const session = await openHostSession({artifacts: join(root, 'a'), exe, planDigest, taskIds: ['x']});
	t.equal(session.identity.kind, 'build');
	t.same(session.identity.problems, [], 'every file matches build.json');
	t.equal((await closeHostSession(session)).closed?.binary_unchanged, true);

	const changed = await openHostSession({artifacts: join(root, 'b'), exe, planDigest, taskIds: ['x']});
	await writeFile(exe, '#!/bin/sh\necho replaced\n');
	const closed = (await closeHostSession(changed)).closed!;
	t.equal(closed.binary_unchanged, false, 'a launcher replaced during the attempt is found at its close');
	t.not(closed.binary_digest, changed.identity.digest, 'and measured anew in full');

	// The attack the entry points alone missed: a file of the build that is neither the launcher, build.json nor node.
	const exe2 = await writeBuild(join(root, 'build2'));
	const swapped = await openHostSession({artifacts: join(root, 'c'), exe: exe2, planDigest, taskIds: ['x']});
	await writeFile(join(root, 'build2', 'engine.js'), 'export const engine = 2;\n');
	const after = (await closeHostSession(swapped)).closed!;
	t.equal(after.binary_unchanged, false, 'a build file other than the launcher rewritten during the attempt is found at its close');
	t.not(after.binary_digest, swapped.identity.digest);
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
