import {createHash} from 'node:crypto';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {pathToFileURL} from 'node:url';
import t from 'tap';
import {digestCachePath} from '../../../files/digest-cache.js';
import {installRoot} from '../../../files/install-root.js';
import {runInGroup} from '../../../process/index.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';
import {writeTree} from '../../write-tree.js';

checkNoLeaks(t);

const sha256 = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

t.test('a tree\'s table (a new host build, a task\'s workspace) leaves no digest-cache entry per file: nothing reads them again', async t => {
	const dir = await tempDir(t, 'hlab-tree-');
	await writeTree(dir, {'a.txt': 'a', 'sub/b.txt': 'b'});
	// Settled, so a per-file entry would be kept if the walk asked for one.
	await sleep(2_200);
	const cacheHome = await tempDir(t, 'hlab-cache-');
	const module = pathToFileURL(join(installRoot, 'dist', 'supervisor', 'source', 'tree-digest.js')).href;
	const script = `const {digestTree} = await import(${JSON.stringify(module)}); process.stdout.write(JSON.stringify(await digestTree(${JSON.stringify(dir)})));`;
	const run = await runInGroup({argv: [process.execPath, '--input-type=module', '-e', script], env: {XDG_CACHE_HOME: cacheHome}, deadlineMs: 60_000});
	t.equal(run.record.exit_code, 0, run.stderr?.toString() ?? '');
	t.same(JSON.parse(run.stdout?.toString() ?? '{}'), {'a.txt': sha256('a'), 'sub/b.txt': sha256('b')}, 'each file by its bytes');
	t.notOk(existsSync(digestCachePath({XDG_CACHE_HOME: cacheHome})), 'no cache entry was written');
});
