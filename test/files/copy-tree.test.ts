import {execFileSync} from 'node:child_process';
import {chmod, lstat, mkdir, readFile, readlink, stat, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {copyTreeSync} from '../../files/copy-tree.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

t.test('a folder is copied with every file, folder, mode and link as it is; no link is followed', async t => {
	const dir = await tempDir(t);
	const from = join(dir, 'package');
	await mkdir(join(from, 'bin'), {recursive: true});
	await mkdir(join(from, 'empty'));
	await mkdir(join(dir, 'outside'));
	await writeFile(join(dir, 'outside', 'secret'), 'not part of the package');
	await writeFile(join(from, 'index.js'), 'export {};\n');
	await writeFile(join(from, 'bin', 'run'), '#!/bin/sh\n', {mode: 0o755});
	await chmod(join(from, 'empty'), 0o700);
	await symlink('../index.js', join(from, 'bin', 'entry.js'));
	await symlink(join(dir, 'outside'), join(from, 'outside-link'));
	await symlink('missing-target', join(from, 'dangling'));
	const to = join(dir, 'build', 'node_modules', 'package');
	copyTreeSync(from, to);
	t.equal(await readFile(join(to, 'index.js'), 'utf8'), 'export {};\n');
	t.equal((await stat(join(to, 'bin', 'run'))).mode & 0o777, 0o755, 'an executable stays executable');
	t.equal((await stat(join(to, 'empty'))).mode & 0o777, 0o700, 'an empty folder is copied with its mode');
	t.equal(await readlink(join(to, 'bin', 'entry.js')), '../index.js', 'a link keeps its target text');
	t.equal(await readlink(join(to, 'outside-link')), join(dir, 'outside'), 'a link to a folder stays a link: what it names is not copied');
	t.ok((await lstat(join(to, 'outside-link'))).isSymbolicLink());
	t.equal(await readlink(join(to, 'dangling')), 'missing-target', 'a dangling link is copied too');
	t.equal(execFileSync('/usr/bin/diff', ['-r', '--no-dereference', from, to], {encoding: 'utf8'}), '', 'diff finds no difference');
});

t.test('a single file is copied into folders made for it', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'README.md'), 'read me');
	copyTreeSync(join(dir, 'README.md'), join(dir, 'out', 'docs', 'README.md'));
	t.equal(await readFile(join(dir, 'out', 'docs', 'README.md'), 'utf8'), 'read me');
});

t.test('what is neither a file, a folder nor a link is refused, named', async t => {
	const dir = await tempDir(t);
	await mkdir(join(dir, 'package'));
	execFileSync('/usr/bin/mkfifo', [join(dir, 'package', 'pipe')]);
	t.throws(() => copyTreeSync(join(dir, 'package'), join(dir, 'out')), {code: 'ENOTCOPYABLE', path: join(dir, 'package', 'pipe')}, 'a FIFO is not opened, which would block');
	t.throws(() => copyTreeSync(join(dir, 'missing'), join(dir, 'out2')), {code: 'ENOENT'});
});
