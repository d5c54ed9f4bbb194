import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {removeTree} from '../../files/remove-tree.js';

t.test('removes a tree of folders and files, and unlinks a symbolic link without following it', async t => {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-remove-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	const outside = join(dir, 'outside');
	await mkdir(outside);
	await writeFile(join(outside, 'keep.txt'), 'keep');
	const tree = join(dir, 'tree');
	await mkdir(join(tree, 'a', 'b'), {recursive: true});
	await writeFile(join(tree, 'a', 'b', 'f.txt'), 'x');
	await writeFile(join(tree, 'top.txt'), 'y');
	await symlink(outside, join(tree, 'link'));
	removeTree(tree);
	t.notOk(existsSync(tree));
	t.ok(existsSync(join(outside, 'keep.txt')), 'the link target is untouched');
});

t.test('a missing folder is not an error', async t => {
	t.doesNotThrow(() => removeTree(join(tmpdir(), `hlab-missing-${process.pid}-${Date.now()}`)));
});
