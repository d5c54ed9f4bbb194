import {mkdir, rename, rm, symlink, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import t, {type Test} from 'tap';
import {packageDifferences, packageFingerprints} from '../../../supervisor/plan/fingerprints.js';
import {tempDir} from '../../temp-dir.js';
import {writeTree} from '../../write-tree.js';

// Real folders laid out as npm lays them out; no process is started.

async function writePackage(dir: string, manifest: object, files: Record<string, string> = {'index.js': 'export {};\n'}): Promise<void> {
	await mkdir(dir, {recursive: true});
	await writeFile(join(dir, 'package.json'), JSON.stringify(manifest));
	await writeTree(dir, files);
}

/** root -> a (a symlinked folder) -> b@2 (nested under a); root -> b@1 (hoisted); c optional and absent; d required and absent. */
async function installation(t: Test): Promise<string> {
	const dir = await tempDir(t, 'hlab-fingerprints-');
	const root = join(dir, 'project', 'node_modules', 'harness-lab');
	await writePackage(root, {name: 'harness-lab', dependencies: {a: '1', b: '1'}, optionalDependencies: {c: '1'}});
	await writePackage(join(dir, 'store', 'a'), {name: 'a', version: '1.0.0', dependencies: {b: '2', d: '1'}});
	await symlink(join(dir, 'store', 'a'), join(dir, 'project', 'node_modules', 'a'), 'dir');
	await writePackage(join(dir, 'store', 'a', 'node_modules', 'b'), {name: 'b', version: '2.0.0'});
	await writePackage(join(dir, 'project', 'node_modules', 'b'), {name: 'b', version: '1.0.0'}, {'lib/b.js': 'export const b = 1;\n', 'data.bin': 'x'});
	return root;
}

t.test('packages are found as Node finds them, transitively, each copy once', async t => {
	const root = await installation(t);
	const found = await packageFingerprints(root);
	t.same(found.map(item => [item.name, item.version]), [['a', '1.0.0'], ['b', '1.0.0'], ['b', '2.0.0'], ['d', null]]);
	t.equal(found.find(item => item.name === 'd')?.digest, null, 'a required package that is absent is unknown, not skipped');
	t.ok(found.filter(item => item.name !== 'd').every(item => item.digest?.startsWith('sha256:')));
	t.same(await packageFingerprints(root), found, 'the same installation gives the same fingerprints');
});

t.test('an edited, added or removed file of an installed package changes its digest; other packages keep theirs', async t => {
	const root = await installation(t);
	const before = await packageFingerprints(root);
	const b = join(dirname(root), 'b');
	await writeFile(join(b, 'lib', 'b.js.new'), 'export const b = 2;\n');
	await rename(join(b, 'lib', 'b.js.new'), join(b, 'lib', 'b.js'));
	const edited = await packageFingerprints(root);
	t.same(packageDifferences(before, edited).map(line => line.split(':')[0]), ['package b']);
	t.match(packageDifferences(before, edited)[0], /^package b: 1\.0\.0\/sha256:\w+, 2\.0\.0\/sha256:\w+ is now 1\.0\.0\/sha256:\w+, 2\.0\.0\/sha256:\w+$/);
	await writeFile(join(b, 'extra.js'), '');
	const b1 = (list: typeof before) => list.find(item => item.name === 'b' && item.version === '1.0.0')?.digest;
	const added = await packageFingerprints(root);
	t.not(b1(added), b1(edited), 'an added file counts');
	await rm(join(b, 'data.bin'));
	t.not(b1(await packageFingerprints(root)), b1(added), 'a removed file counts');
});

// Each file listed is a stat at every admission: of this installation's packages, 60% of the files are no code.
t.test('what Node never loads as code (declarations, TypeScript sources, source maps, Markdown) does not count; every other file does', async t => {
	const root = await installation(t);
	const b = join(dirname(root), 'b');
	const b1 = async () => (await packageFingerprints(root)).find(item => item.name === 'b' && item.version === '1.0.0')?.digest;
	const before = await b1();
	await writeTree(b, {'lib/b.d.ts': 'export declare const b: number;\n', 'lib/b.d.mts': '', 'src/b.ts': 'export const b = 1;\n', 'src/b.cts': '', 'lib/b.js.map': '{}', 'README.md': '# b\n'});
	t.equal(await b1(), before, 'declarations, sources, maps and documents added: the same digest');
	for (const [name, text] of [['lib/b.json', '{}'], ['lib/b.cjs', ''], ['lib/b.lua', 'return 1'], ['LICENSE', 'MIT'], ['bin/b', '#!/bin/sh\n']] as const) {
		const was = await b1();
		await writeTree(b, {[name]: text});
		t.not(await b1(), was, `${name} counts`);
	}
});

t.test('a nested node_modules belongs to its own package, not to the one that holds it', async t => {
	const root = await installation(t);
	const before = await packageFingerprints(root);
	await writeFile(join(root, '..', 'a', 'node_modules', 'b', 'index.js'), 'export const changed = true;\n');
	const after = await packageFingerprints(root);
	t.equal(after.find(item => item.name === 'a')?.digest, before.find(item => item.name === 'a')?.digest);
	t.not(after.find(item => item.version === '2.0.0')?.digest, before.find(item => item.version === '2.0.0')?.digest);
});

t.test('differences name packages newly installed or no longer installed', async t => {
	const one = {name: 'x', version: '1.0.0', digest: 'sha256:1'};
	t.same(packageDifferences([one], []), ['package x: no longer installed (was 1.0.0/sha256:1)']);
	t.same(packageDifferences([], [one]), ['package x: newly installed (1.0.0/sha256:1)']);
	t.same(packageDifferences([one], [{...one}]), []);
});
