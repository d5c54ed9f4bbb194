import {readFile, rm, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {canonicalJson} from '../../../files/canonical-json.js';
import {digestCachePath} from '../../../files/digest-cache.js';
import {sha256} from '../../../files/sha256.js';
import {checkNoLeaks} from '../../leak-check.js';
import {inNewProcess} from '../../new-process.js';
import {tempDir} from '../../temp-dir.js';
import {writeTree} from '../../write-tree.js';

checkNoLeaks(t);

/** A stamp younger than two seconds is never cached: the waits below let the files settle. */
const settle = (): Promise<void> => sleep(2_200);

/** The build digest of `root` from a new Node process with its own cache folder, as the next hlab process would measure it. */
async function buildDigestInProcess(root: string, cacheHome: string): Promise<string> {
	const run = await inNewProcess('supervisor/evidence/build-metadata.js', `m.buildDigest(${JSON.stringify(root)})`, cacheHome);
	if (run.code !== 0) throw new Error(run.stderr);
	return (run.value as {digest: string}).digest;
}

/** What the digest must be: every shipped file's own digest by its name from the root, the whole as canonical JSON. */
const expected = (files: Record<string, string>): string => sha256(canonicalJson(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, sha256(text)]))));

async function build(files: Record<string, string>): Promise<string> {
	const root = await tempDir(t, 'hlab-build-');
	await writeTree(root, files);
	return root;
}

const entries = async (cacheHome: string): Promise<string[]> => Object.keys(JSON.parse(await readFile(digestCachePath({XDG_CACHE_HOME: cacheHome}), 'utf8')).entries);

t.test('a settled build is one digest-cache entry, not one per file, and answers the same digest from it', async t => {
	const files = {'dist/process/a.js': 'a', 'dist/files/b.js': 'b', 'dist/bundle/c.js': 'c', 'dist/scripted/cl100k.ranks': 'ranks'};
	const root = await build({...files, 'dist/test/not-shipped.js': 'x', 'dist/process/a.d.ts': 'types'});
	const cacheHome = await tempDir(t, 'hlab-cache-');
	await settle();
	t.equal(await buildDigestInProcess(root, cacheHome), expected(files), 'the shipped files, each by its bytes');
	const saved = await entries(cacheHome);
	t.equal(saved.length, 1, 'one entry');
	t.match(saved[0], /^build:sha256:/, 'keyed by the build\'s stamps');
	t.equal(await buildDigestInProcess(root, cacheHome), expected(files), 'the next process answers the same from it');
});

t.test('an edit, an added file or a removed one is a new digest at once', async t => {
	const files = {'dist/process/a.js': 'a', 'dist/files/b.js': 'b'};
	const root = await build(files);
	const cacheHome = await tempDir(t, 'hlab-cache-');
	await settle();
	t.equal(await buildDigestInProcess(root, cacheHome), expected(files));
	// The same size, so only the stamp's times say it changed.
	await writeFile(join(root, 'dist/process/a.js'), 'A');
	t.equal(await buildDigestInProcess(root, cacheHome), expected({...files, 'dist/process/a.js': 'A'}), 'edited');
	await writeTree(root, {'dist/engine/new.js': 'new'});
	t.equal(await buildDigestInProcess(root, cacheHome), expected({...files, 'dist/process/a.js': 'A', 'dist/engine/new.js': 'new'}), 'added');
	await rm(join(root, 'dist/files/b.js'));
	t.equal(await buildDigestInProcess(root, cacheHome), expected({'dist/process/a.js': 'A', 'dist/engine/new.js': 'new'}), 'removed');
});

t.test('a linked file counts by the bytes of the file it leads to, and so does its stamp', async t => {
	const root = await build({'dist/process/a.js': 'a', 'elsewhere/target.js': 'one'});
	await symlink(join(root, 'elsewhere/target.js'), join(root, 'dist/process/linked.js'));
	const cacheHome = await tempDir(t, 'hlab-cache-');
	await settle();
	t.equal(await buildDigestInProcess(root, cacheHome), expected({'dist/process/a.js': 'a', 'dist/process/linked.js': 'one'}));
	await writeFile(join(root, 'elsewhere/target.js'), 'two');
	await settle();
	t.equal(await buildDigestInProcess(root, cacheHome), expected({'dist/process/a.js': 'a', 'dist/process/linked.js': 'two'}), 'the target\'s new bytes, though no file under dist/ changed');
});
