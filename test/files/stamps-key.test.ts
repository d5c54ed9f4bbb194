import {mkdtemp, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {stampsKey} from '../../files/stamps-key.js';
import type {WalkedFile} from '../../files/walk-tree.js';

const dir = await mkdtemp(join(tmpdir(), 'hlab-stamps-'));
t.teardown(() => rm(dir, {recursive: true, force: true}));
await writeFile(join(dir, 'a.js'), 'a');
await writeFile(join(dir, 'b.js'), 'b');
await symlink('a.js', join(dir, 'c.js'));
const entries: WalkedFile[] = [
	{name: 'a.js', path: join(dir, 'a.js'), link: false},
	{name: 'b.js', path: join(dir, 'b.js'), link: false},
	{name: 'c.js', path: join(dir, 'c.js'), link: true},
];

t.test('files written just now key nothing: their stamps cannot be trusted yet', async t => {
	t.equal(stampsKey('tree', entries), null);
});

t.test('settled files key their tree, in whatever order they were listed', async t => {
	// Past the settling time (file-digest.ts).
	await sleep(2_200);
	const key = stampsKey('tree', entries);
	t.match(key, /^tree:sha256:[0-9a-f]{64}$/);
	t.equal(stampsKey('tree', [...entries].reverse()), key, 'the listing order does not matter');
	t.equal(stampsKey('tree', entries), key, 'the same stamps give the same key');
	t.not(stampsKey('package', entries), key, 'the kind is part of the key');
	t.not(stampsKey('tree', entries.map(entry => (entry.name === 'b.js' ? {...entry, name: 'd.js'} : entry))), key, 'a file\'s name is part of the key');
	t.not(stampsKey('tree', entries.slice(0, 2)), key, 'a file fewer is another key');
	await rm(join(dir, 'c.js'));
	await symlink('b.js', join(dir, 'c.js'));
	t.not(stampsKey('tree', entries), key, 'a link is keyed by its target');
	await writeFile(join(dir, 'a.js'), 'edited');
	t.equal(stampsKey('tree', entries), null, 'an edited file unsettles the tree again');
});
