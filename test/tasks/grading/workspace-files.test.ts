import {linkSync, mkdirSync, symlinkSync, writeFileSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import t, {type Test} from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {getTask} from '../../../tasks/index.js';
import {installRoot} from '../../../files/install-root.js';
import {readWorkspaceFile, workspaceEntries} from '../../../tasks/grading/workspace-files.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

const expected = join(installRoot, 'tasks/json_config_migration/expected/config/service.v2.json');

async function migrationWorkspace(t: Test): Promise<string> {
	const dir = join(await tempDir(t, 'hlab-links-'), 'ws');
	await getTask('json_config_migration')!.setup(dir);
	return dir;
}

t.test('a symbolic link to the grader\'s expected file does not pass the migration', async t => {
	const dir = await migrationWorkspace(t);
	symlinkSync(expected, join(dir, 'config/service.v2.json'));
	const grade = await getTask('json_config_migration')!.grade(dir, {deadlineMs: 30_000});
	t.equal(grade.passed, false, grade.details);
	t.match(grade.details, /FAIL: config\/service\.v2\.json is the migrated configuration \(symlink: config\/service\.v2\.json\)/);
});

t.test('a hard link to the grader\'s expected file does not pass the migration', async t => {
	// A hard link needs the installation's file system: the workspace sits in tap's folder of this checkout.
	const parent = join(installRoot, '.tap');
	mkdirSync(parent, {recursive: true});
	const dir = join(await mkdtemp(join(parent, 'hlab-links-')), 'ws');
	t.teardown(() => rm(dirname(dir), {recursive: true, force: true}));
	await getTask('json_config_migration')!.setup(dir);
	linkSync(expected, join(dir, 'config/service.v2.json'));
	const grade = await getTask('json_config_migration')!.grade(dir, {deadlineMs: 30_000});
	t.equal(grade.passed, false, grade.details);
	t.match(grade.details, /\(hard link: config\/service\.v2\.json has 2 links\)/);
});

t.test('a linked folder on the way is refused too, and so is a link to the original of a protected file', async t => {
	const dir = await migrationWorkspace(t);
	const elsewhere = await tempDir(t, 'hlab-elsewhere-');
	writeFileSync(join(elsewhere, 'service.v2.json'), '{}');
	symlinkSync(elsewhere, join(dir, 'out'));
	t.same(readWorkspaceFile(dir, 'out/service.v2.json'), {ok: false, reason: 'symlink: out'});
	const original = join(installRoot, 'tasks/json_config_migration/files/config/service.v1.json');
	const linked = await migrationWorkspace(t);
	const v1 = join(linked, 'config/service.v1.json');
	await import('node:fs/promises').then(fs => fs.rm(v1));
	symlinkSync(original, v1);
	const grade = await getTask('json_config_migration')!.grade(linked, {deadlineMs: 30_000});
	t.match(grade.details, /FAIL: the version 1 file is unchanged \(symlink: config\/service\.v1\.json\)/);
});

t.test('the reader takes a plain file and names what is not one', async t => {
	const dir = await tempDir(t, 'hlab-read-');
	mkdirSync(join(dir, 'a'));
	writeFileSync(join(dir, 'a/b.txt'), 'text');
	t.match(readWorkspaceFile(dir, 'a/b.txt'), {ok: true});
	t.same(readWorkspaceFile(dir, 'a/none.txt'), {ok: false, reason: 'missing: a/none.txt'});
	t.same(readWorkspaceFile(dir, 'a'), {ok: false, reason: 'not a regular file: a'});
	t.same(readWorkspaceFile(dir, 'a/b.txt/c'), {ok: false, reason: 'not a folder: a/b.txt'});
	t.throws(() => readWorkspaceFile(dir, '../x'), /leaves the workspace/);
});

t.test('the workspace\'s entries: folders, files and links, a link never followed, not even a link to the root', async t => {
	const dir = await tempDir(t, 'hlab-entries-');
	mkdirSync(join(dir, 'a/b'), {recursive: true});
	writeFileSync(join(dir, 'a/b/c.txt'), '');
	symlinkSync('/', join(dir, 'root'));
	symlinkSync('.', join(dir, 'a/loop'));
	t.same(await workspaceEntries(dir), ['a', 'a/b', 'a/b/c.txt', 'a/loop', 'root']);
});

t.test('a tree past the small listing is listed whole the other way, links still not followed', async t => {
	const dir = await tempDir(t, 'hlab-entries-many-');
	const names = Array.from({length: 100}, (_, index) => `f${String(index).padStart(3, '0')}`);
	mkdirSync(join(dir, 'deep/er'), {recursive: true});
	for (const name of names) writeFileSync(join(dir, 'deep/er', name), '');
	symlinkSync('/', join(dir, 'deep/root'));
	t.same(await workspaceEntries(dir), ['deep', 'deep/er', ...names.map(name => `deep/er/${name}`), 'deep/root']);
});

t.test('a model\'s `ln -s / root` fails the no-file-added check at once, and the grader does not walk the machine', async t => {
	const dir = join(await tempDir(t, 'hlab-root-link-'), 'ws');
	const task = getTask('answer_from_prompt')!;
	await task.setup(dir);
	symlinkSync('/', join(dir, 'root'));
	const started = performance.now();
	const grade = await task.grade(dir, {deadlineMs: 30_000, finalText: 'The job finished at 12:25.'});
	t.equal(grade.passed, false);
	t.match(grade.details, /FAIL: no file was added \(added: root\)/);
	// Following the link (readdir's `recursive`) was still listing the machine 20 s later.
	t.ok(performance.now() - started < 5_000, `graded in ${Math.round(performance.now() - started)} ms`);
});
