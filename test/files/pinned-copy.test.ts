import {constants} from 'node:fs';
import {copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {digestCacheDir} from '../../files/digest-cache.js';
import {fileDigest} from '../../files/file-digest.js';
import {pinnedCopy} from '../../files/pinned-copy.js';
import {sha256} from '../../files/sha256.js';

t.test('a large pinned file is linked to one stored copy, never copied whole again, and its source is left untouched', async t => {
	// Beside the store, so the two share a file system whatever TMPDIR is (the test runner's may be a tmpfs).
	await mkdir(digestCacheDir(), {recursive: true});
	const dir = await mkdtemp(join(digestCacheDir(), 'test-pinned-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	// The Node binary, as a pinned controller names it: settled, 125 MB, on this file system.
	const node = process.execPath;
	const before = await stat(node, {bigint: true});
	const first = await pinnedCopy(node, join(dir, 'node-1'));
	const second = await pinnedCopy(node, join(dir, 'node-2'));
	t.equal(first.digest, await fileDigest(node));
	t.equal(second.digest, first.digest);
	const [a, b] = [await stat(join(dir, 'node-1')), await stat(join(dir, 'node-2'))];
	if (first.kind === 'reflink') {
		t.pass('the file system clones: each copy is a reflink');
	} else {
		t.equal(first.kind, 'link', 'linked where the store and the evidence share a file system');
		t.equal(a.ino, b.ino, 'both copies are the one stored copy');
		t.equal(a.mode & 0o222, 0, 'the stored copy is read-only');
		t.equal(a.mode & 0o111, Number(before.mode) & 0o111, 'and as executable as its source');
		t.equal((await stat(join(digestCacheDir(), 'pinned', first.digest.replace('sha256:', '')))).ino, a.ino, 'the store keeps the one copy under its digest');
	}
	const after = await stat(node, {bigint: true});
	t.equal(after.ctimeNs, before.ctimeNs, 'the source\'s ctime did not move, so its cached digest still holds');
	t.equal(sha256(await readFile(join(dir, 'node-2'))), first.digest, 'the copy holds the digested bytes');
	await t.rejects(pinnedCopy(node, join(dir, 'node-1')), {code: 'EEXIST'}, 'an existing copy is never replaced');
});

t.test('a small or freshly written file is copied and its copy hashed', async t => {
	const dir = await mkdtemp(join(tmpdir(), 'hlab-pinned-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	await writeFile(join(dir, 'small.txt'), 'pinned');
	const made = await pinnedCopy(join(dir, 'small.txt'), join(dir, 'copy.txt'));
	t.equal(made.digest, sha256('pinned'));
	t.ok(made.kind === 'copy' || made.kind === 'reflink', made.kind);
	t.not((await stat(join(dir, 'copy.txt'))).ino, (await stat(join(dir, 'small.txt'))).ino, 'a copy of its own');
	// The bytes a copy holds are what is digested, even when the source changes right after.
	await copyFile(join(dir, 'copy.txt'), join(dir, 'again.txt'), constants.COPYFILE_EXCL);
	t.equal(await fileDigest(join(dir, 'again.txt')), made.digest);
});
