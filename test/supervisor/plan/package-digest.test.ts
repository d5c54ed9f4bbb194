import t from 'tap';
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {digestCachePath} from '../../../files/digest-cache.js';
import {checkNoLeaks} from '../../leak-check.js';
import {inNewProcess} from '../../new-process.js';

checkNoLeaks(t);

/** A package's digest computed in a new Node process with its own cache folder, as a second hlab process would. */
async function digestInProcess(dir: string, cacheHome: string): Promise<string> {
	const run = await inNewProcess('supervisor/plan/package-digest.js', `m.packageDigest(${JSON.stringify(dir)})`, cacheHome);
	if (run.code !== 0) throw new Error(run.stderr);
	return run.value as string;
}

async function packageKeys(cacheHome: string): Promise<string[]> {
	const saved = JSON.parse(await readFile(digestCachePath({XDG_CACHE_HOME: cacheHome}), 'utf8')) as {entries: Record<string, string>};
	return Object.keys(saved.entries).filter(key => key.startsWith('package:'));
}

t.test('a settled package is cached whole under its files\' stamps, and an edit to one file is never answered from it', async t => {
	const base = await mkdtemp(join(tmpdir(), 'hlab-package-'));
	t.teardown(() => rm(base, {recursive: true, force: true}));
	const dir = join(base, 'pkg');
	const cacheHome = join(base, 'cache');
	await mkdir(join(dir, 'lib'), {recursive: true});
	await writeFile(join(dir, 'package.json'), '{"name": "pkg", "version": "1.0.0"}');
	await writeFile(join(dir, 'lib', 'index.js'), 'export const x = 1;');
	const fresh = await digestInProcess(dir, cacheHome);
	t.same(await packageKeys(cacheHome).catch(() => []), [], 'files written just now key nothing');
	// Past the settling time (file-digest.ts), the stamps can be trusted.
	await sleep(2_200);
	t.equal(await digestInProcess(dir, cacheHome), fresh, 'the same digest once settled');
	const [key, ...more] = await packageKeys(cacheHome);
	t.ok(key !== undefined && more.length === 0, 'one entry for the whole package');
	// A planted value shows the next process answers from the entry without reading the files.
	const path = digestCachePath({XDG_CACHE_HOME: cacheHome});
	const saved = JSON.parse(await readFile(path, 'utf8')) as {entries: Record<string, string>};
	saved.entries[key!] = '0'.repeat(64);
	await writeFile(path, JSON.stringify(saved));
	t.equal(await digestInProcess(dir, cacheHome), `sha256:${'0'.repeat(64)}`, 'a second process takes the cached digest');
	// The attack: the same bytes' length, one file edited, the planted entry still there. Its stamp moved, so the key did.
	await writeFile(join(dir, 'lib', 'index.js'), 'export const x = 2;');
	const edited = await digestInProcess(dir, cacheHome);
	t.not(edited, `sha256:${'0'.repeat(64)}`, 'an edited package is digested again');
	t.not(edited, fresh, 'and its digest moved');
	await writeFile(join(dir, 'lib', 'extra.js'), '');
	t.not(await digestInProcess(dir, cacheHome), edited, 'a file added is seen');
});
