import t from 'tap';
import {existsSync} from 'node:fs';
import {mkdtemp, readFile, rm, stat, utimes, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {DigestCache, digestCachePath} from '../../files/digest-cache.js';
import {fileDigest} from '../../files/file-digest.js';
import {sha256} from '../../files/sha256.js';
import {checkNoLeaks} from '../leak-check.js';
import {inNewProcess} from '../new-process.js';

checkNoLeaks(t);

t.test('a file rewritten right after hashing, same size, same mtime, is hashed again', async t => {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-digest-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	const file = join(dir, 'pinned.bin');
	await writeFile(file, 'AAAA');
	t.equal(await fileDigest(file), sha256('AAAA'));
	await writeFile(file, 'BBBB');
	// Setting mtime back cannot hide the write: ctime still moves.
	const old = new Date(Date.now() - 60_000);
	await utimes(file, old, old);
	t.equal(await fileDigest(file), sha256('BBBB'));
	await writeFile(file, 'CCCC');
	await utimes(file, old, old);
	t.equal(await fileDigest(file), sha256('CCCC'));
});

/** Digests `file` in a new Node process with its own cache folder, as a second hlab process would. */
async function digestInProcess(file: string, cacheHome: string): Promise<string> {
	const run = await inNewProcess('files/file-digest.js', `m.fileDigest(${JSON.stringify(file)})`, cacheHome);
	if (run.code !== 0) throw new Error(run.stderr);
	return run.value as string;
}

t.test('a settled file\'s digest is kept across processes in the user\'s cache, keyed by its stamp', async t => {
	const cacheHome = await mkdtemp(join(tmpdir(), 'hlab-cache-'));
	t.teardown(() => rm(cacheHome, {recursive: true, force: true}));
	// The Node binary: settled long ago, and the file this cache exists for.
	const node = process.execPath;
	const digest = await digestInProcess(node, cacheHome);
	t.equal(digest, sha256(await readFile(node)));
	const path = digestCachePath({XDG_CACHE_HOME: cacheHome});
	t.equal(path, join(cacheHome, 'harness-lab', 'file-digests.json'));
	const saved = JSON.parse(await readFile(path, 'utf8'));
	const info = await stat(node, {bigint: true});
	const stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
	t.equal(`sha256:${saved.entries[stamp]}`, digest, 'the cache file holds the digest under the file\'s stamp');
	// A planted entry shows the next process answers from the cache without reading the file.
	saved.entries[stamp] = '0'.repeat(64);
	await writeFile(path, JSON.stringify(saved));
	t.equal(await digestInProcess(node, cacheHome), `sha256:${'0'.repeat(64)}`, 'a second process takes the cached digest');
	await writeFile(path, '{"schema": "something else"}');
	t.equal(await digestInProcess(node, cacheHome), digest, 'a cache file it cannot read is ignored, then replaced');
	t.equal(JSON.parse(await readFile(path, 'utf8')).schema, 'harness-lab/file-digests@1');
});

t.test('a file just written is never cached: its stamp could be shared with the next write', async t => {
	const cacheHome = await mkdtemp(join(tmpdir(), 'hlab-cache-'));
	t.teardown(() => rm(cacheHome, {recursive: true, force: true}));
	const file = join(cacheHome, 'fresh.txt');
	await writeFile(file, 'fresh');
	t.equal(await digestInProcess(file, cacheHome), sha256('fresh'));
	t.notOk(existsSync(digestCachePath({XDG_CACHE_HOME: cacheHome})), 'nothing was worth writing');
});

t.test('a full cache evicts the entries no process used lately, not the ones every attempt needs', async t => {
	const cacheHome = await mkdtemp(join(tmpdir(), 'hlab-cache-'));
	t.teardown(() => rm(cacheHome, {recursive: true, force: true}));
	const path = digestCachePath({XDG_CACHE_HOME: cacheHome});
	const digest = (n: number): string => String(n).repeat(64);
	const first = new DigestCache(path, 3);
	for (const stamp of ['hot', 'cold', 'warm']) first.set(stamp, digest(1));
	first.save();
	// The next process reads the hot entry (the supervisor's packages, say), then learns a new one (a fresh build's file).
	const next = new DigestCache(path, 3);
	t.equal(next.get('hot'), digest(1));
	next.set('new', digest(2));
	next.save();
	const kept = Object.keys(JSON.parse(await readFile(path, 'utf8')).entries);
	t.same(kept, ['warm', 'hot', 'new'], 'the entry nobody used went first; the one just used stayed');
});
