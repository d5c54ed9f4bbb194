import {mkdir, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {walkTree, walkTreeSync, walkTreeSyncUpTo} from '../../files/walk-tree.js';
import {tempDir} from '../temp-dir.js';

t.test('every file below a folder, sorted by its relative name, links listed and never followed', async t => {
	const dir = await tempDir(t);
	await mkdir(join(dir, 'b', 'deep'), {recursive: true});
	await mkdir(join(dir, 'outside'));
	await writeFile(join(dir, 'z.js'), '');
	await writeFile(join(dir, 'b', 'deep', 'a.ts'), '');
	await writeFile(join(dir, 'b', 'types.d.ts'), '');
	await writeFile(join(dir, 'outside', 'secret.ts'), '');
	await symlink(join(dir, 'outside'), join(dir, 'b', 'link'));
	const all = await walkTree(join(dir, 'b'));
	t.same(all.map(file => [file.name, file.link]), [['deep/a.ts', false], ['link', true], ['types.d.ts', false]]);
	t.equal(all[0]!.path, join(dir, 'b', 'deep', 'a.ts'));
	t.same((await walkTree(dir, {suffixes: ['.ts']})).map(file => file.name), ['b/deep/a.ts', 'outside/secret.ts'], 'declaration files are not source');
	t.same((await walkTree(dir, {skip: name => name.startsWith('outside/')})).map(file => file.name), ['b/deep/a.ts', 'b/link', 'b/types.d.ts', 'z.js']);
	t.same(walkTreeSync(dir), await walkTree(dir), 'the synchronous walk finds the same');
	t.same(await walkTree(join(dir, 'missing')), [], 'a missing folder has no files');
});

t.test('the synchronous walk up to a limit: the whole walk within it, nothing past it', async t => {
	const dir = await tempDir(t);
	await mkdir(join(dir, 'a', 'b'), {recursive: true});
	for (const name of ['one', 'a/two', 'a/b/three']) await writeFile(join(dir, name), '');
	t.same(walkTreeSyncUpTo(dir, 3), await walkTree(dir), 'three files, a limit of three');
	t.equal(walkTreeSyncUpTo(dir, 2), null, 'a limit of two is given up, however deep the third file is');
	t.same(walkTreeSyncUpTo(join(dir, 'missing'), 2), [], 'a missing folder has none');
});
