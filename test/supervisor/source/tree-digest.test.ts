import {existsSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {digestCachePath} from '../../../files/digest-cache.js';
import {sha256} from '../../../files/sha256.js';
import {checkNoLeaks} from '../../leak-check.js';
import {inNewProcess} from '../../new-process.js';
import {tempDir} from '../../temp-dir.js';
import {writeTree} from '../../write-tree.js';

checkNoLeaks(t);

t.test('a tree\'s table (a new host build, a task\'s workspace) leaves no digest-cache entry per file: nothing reads them again', async t => {
	const dir = await tempDir(t, 'hlab-tree-');
	await writeTree(dir, {'a.txt': 'a', 'sub/b.txt': 'b'});
	// Settled, so a per-file entry would be kept if the walk asked for one.
	await sleep(2_200);
	const cacheHome = await tempDir(t, 'hlab-cache-');
	const run = await inNewProcess('supervisor/source/tree-digest.js', `m.digestTree(${JSON.stringify(dir)})`, cacheHome);
	t.equal(run.code, 0, run.stderr);
	t.same(run.value, {'a.txt': sha256('a'), 'sub/b.txt': sha256('b')}, 'each file by its bytes');
	t.notOk(existsSync(digestCachePath({XDG_CACHE_HOME: cacheHome})), 'no cache entry was written');
});
