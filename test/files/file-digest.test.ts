import t from 'tap';
import {mkdtemp, rm, utimes, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileDigest} from '../../files/file-digest.js';
import {sha256} from '../../files/sha256.js';

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
