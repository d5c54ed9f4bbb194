import {existsSync, readdirSync, statfsSync, statSync} from 'node:fs';
import {mkdir, readFile, truncate, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkRuntimeRootVariable, chooseRuntimeRoot, dropRuntimeRoot, exportLeftRuntime, recordRuntimeRoot, type RuntimeRootRecord} from '../../../supervisor/evidence/runtime-root.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

// Moving state off the tmpfs runs cp.
checkNoLeaks(t);

/** statfs(2)'s f_type of a tmpfs. */
const tmpfsMagic = 0x01021994;

const id = (): string => `test-${process.pid}-${Math.random().toString(36).slice(2)}`;

t.test('the shared-memory tmpfs holds the runtime state when $XDG_RUNTIME_DIR cannot; the folder is private', async t => {
	const dir = await tempDir(t);
	const notAFolder = join(dir, 'file');
	await writeFile(notAFolder, '');
	const root = chooseRuntimeRoot(id(), {XDG_RUNTIME_DIR: notAFolder});
	t.teardown(() => dropRuntimeRoot(root));
	t.equal(root.source, '/dev/shm');
	t.equal(root.tmpfs, true, '/dev/shm is a tmpfs');
	t.match(root.dir, /^\/dev\/shm\/hlab-test-/);
	t.equal(statSync(root.dir!).mode & 0o777, 0o700, 'no other user reads a task\'s state');
	t.match(root.skipped, [/^XDG_RUNTIME_DIR .*ENOTDIR/]);
});

t.test('$XDG_RUNTIME_DIR comes first when it can hold the folder, tmpfs or not (recorded as it is)', async t => {
	const dir = await tempDir(t);
	const root = chooseRuntimeRoot(id(), {XDG_RUNTIME_DIR: dir});
	t.equal(root.source, 'XDG_RUNTIME_DIR');
	t.equal(root.dir?.startsWith(`${dir}/hlab-`), true);
	// The test runner's temporary folder is a tmpfs where there is one (scripts/tap.sh), a disk elsewhere: the record says which.
	t.equal(root.tmpfs, statfsSync(dir).type === tmpfsMagic, 'recorded as the file system is');
	t.same(root.skipped, []);
});

t.test('with neither root usable, the state stays in the evidence directory, and the reasons are recorded', async t => {
	const dir = await tempDir(t);
	const root = chooseRuntimeRoot(id(), {XDG_RUNTIME_DIR: join(dir, 'missing')}, join(dir, 'no-shm'));
	t.equal(root.dir, null);
	t.equal(root.source, 'evidence');
	t.equal(root.skipped.length, 2);
	t.match(root.skipped.join('\n'), /ENOENT/);
});

t.test('HLAB_RUNTIME_ROOT overrides the search: a folder, or `evidence`; an unusable one is bad input', async t => {
	const dir = await tempDir(t);
	const chosen = chooseRuntimeRoot(id(), {HLAB_RUNTIME_ROOT: dir, XDG_RUNTIME_DIR: '/dev/shm'});
	t.equal(chosen.source, 'HLAB_RUNTIME_ROOT');
	t.equal(chosen.dir?.startsWith(dir), true);
	t.equal(chooseRuntimeRoot(id(), {HLAB_RUNTIME_ROOT: 'evidence'}).dir, null);
	t.throws(() => chooseRuntimeRoot(id(), {HLAB_RUNTIME_ROOT: join(dir, 'missing', 'deeper')}), {reason: 'runtime_root', message: /cannot hold the runtime state/});
	t.throws(() => chooseRuntimeRoot(id(), {HLAB_RUNTIME_ROOT: 'relative/path'}), {reason: 'runtime_root', message: /cannot hold the runtime state/});
});

t.test('state left on the runtime root moves into its task folder and the root goes', async t => {
	const dir = await tempDir(t);
	const evidence = join(dir, 'evidence');
	await mkdir(evidence);
	const root = chooseRuntimeRoot(id(), {XDG_RUNTIME_DIR: join(dir, 'nothing')});
	t.teardown(() => dropRuntimeRoot(root));
	recordRuntimeRoot(evidence, root);
	await mkdir(join(root.dir!, '002-b', 'workspace', 'sub'), {recursive: true});
	await writeFile(join(root.dir!, '002-b', 'workspace', 'sub', 'made.txt'), 'made');
	const left = await exportLeftRuntime(evidence);
	t.same(left, {moved: ['tasks/002-b'], problems: []});
	t.equal(await readFile(join(evidence, 'tasks', '002-b', 'runtime-state', 'workspace', 'sub', 'made.txt'), 'utf8'), 'made');
	t.notOk(existsSync(root.dir!), 'nothing stays on the tmpfs');
	t.same(await exportLeftRuntime(evidence), {moved: [], problems: []}, 'a second export finds nothing');
});

t.test('a sparse file a crashed task left on the runtime root moves into the evidence still sparse', async t => {
	const dir = await tempDir(t);
	const evidence = join(dir, 'evidence');
	await mkdir(evidence);
	const root = chooseRuntimeRoot(id(), {XDG_RUNTIME_DIR: join(dir, 'nothing')});
	t.teardown(() => dropRuntimeRoot(root));
	recordRuntimeRoot(evidence, root);
	await mkdir(join(root.dir!, '001-a', 'workspace'), {recursive: true});
	await writeFile(join(root.dir!, '001-a', 'workspace', 'sparse'), '');
	await truncate(join(root.dir!, '001-a', 'workspace', 'sparse'), 4 * 1024 ** 3);
	t.same(await exportLeftRuntime(evidence), {moved: ['tasks/001-a'], problems: []});
	const moved = statSync(join(evidence, 'tasks', '001-a', 'runtime-state', 'workspace', 'sparse'));
	t.equal(moved.size, 4 * 1024 ** 3, 'its size kept');
	// A byte-by-byte copy (fs.copyFile) allocates all four gigabytes.
	t.ok(moved.blocks * 512 <= 64 * 1024, `its holes kept: ${moved.blocks * 512} bytes allocated`);
});

t.test('a default root with less free space than one workspace limit is passed over, and why is recorded', async t => {
	const dir = await tempDir(t);
	// A pebibyte: more than /dev/shm, or anything here, has free.
	const root = chooseRuntimeRoot(id(), {XDG_RUNTIME_DIR: dir}, '/dev/shm', 1024 ** 5);
	t.equal(root.source, 'evidence', 'the task folders hold the state instead');
	t.equal(root.dir, null);
	t.match(root.skipped, [/^XDG_RUNTIME_DIR \(.*\): \d+ bytes free, less than one workspace limit \(1125899906842624 bytes\)$/, /^\/dev\/shm \(\/dev\/shm\): \d+ bytes free/]);
	t.same(readdirSync(dir), [], 'nothing was made in a root passed over');
	const roomy = chooseRuntimeRoot(id(), {XDG_RUNTIME_DIR: dir}, '/dev/shm', 1024);
	t.teardown(() => dropRuntimeRoot(roomy));
	t.equal(roomy.source, 'XDG_RUNTIME_DIR', 'one with room is used');
});

t.test('each folder is named to the attempt before it is made, so no instant has a runtime folder nobody names', async t => {
	const dir = await tempDir(t);
	const notAFolder = join(dir, 'file');
	await writeFile(notAFolder, '');
	const planned: {record: RuntimeRootRecord; existed: boolean}[] = [];
	const root = chooseRuntimeRoot(id(), {XDG_RUNTIME_DIR: notAFolder}, '/dev/shm', 0, record => planned.push({record, existed: existsSync(record.dir!)}));
	t.teardown(() => dropRuntimeRoot(root));
	t.same(planned.map(({record}) => record.source), ['XDG_RUNTIME_DIR', '/dev/shm'], 'the one that failed was named too');
	t.ok(planned.every(({existed}) => !existed), 'named before it existed');
	t.equal(planned[1]!.record.dir, root.dir);
	const evidence = join(dir, 'evidence');
	await mkdir(evidence);
	recordRuntimeRoot(evidence, planned[1]!.record);
	recordRuntimeRoot(evidence, root);
	t.same(JSON.parse(await readFile(join(evidence, 'runtime-root.json'), 'utf8')), root, 'the record is rewritten whole as the choice settles');
});

t.test('an unusable HLAB_RUNTIME_ROOT is refused before anything is made', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'file'), '');
	t.throws(() => checkRuntimeRootVariable({HLAB_RUNTIME_ROOT: join(dir, 'missing')}), {reason: 'runtime_root', message: /cannot hold the runtime state: ENOENT/});
	t.throws(() => checkRuntimeRootVariable({HLAB_RUNTIME_ROOT: join(dir, 'file')}), {reason: 'runtime_root', message: /ENOTDIR/});
	t.throws(() => checkRuntimeRootVariable({HLAB_RUNTIME_ROOT: 'relative'}), {reason: 'runtime_root', message: /not an absolute path/});
	for (const usable of [dir, 'evidence', '']) checkRuntimeRootVariable({HLAB_RUNTIME_ROOT: usable});
	t.same(readdirSync(dir), ['file'], 'nothing was made');
});
