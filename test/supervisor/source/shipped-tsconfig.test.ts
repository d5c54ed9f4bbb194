import {existsSync} from 'node:fs';
import {mkdir, readFile, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {installRoot} from '../../../files/install-root.js';
import {runInGroup} from '../../../process/index.js';
import {writeShippedTsconfig} from '../../../supervisor/source/shipped-tsconfig.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

const packageFiles = ['bin', 'dist', '!dist/test', '!dist/bench', '!dist/**/*.map', 'examples'];

/** A checkout of two folders, `src` and `test`, with this checkout's packages (its @types/node among them). */
async function checkout(t: Test, tsconfig: string): Promise<string> {
	const root = await tempDir(t, 'hlab-shipped-');
	await Promise.all([mkdir(join(root, 'src')), mkdir(join(root, 'test'))]);
	await writeFile(join(root, 'tsconfig.json'), tsconfig);
	await writeFile(join(root, 'src', 'main.ts'), 'import {sep} from \'node:path\';\nexport const separator: string = sep;\n');
	await writeFile(join(root, 'test', 'main.test.ts'), 'export const tested = true;\n');
	await symlink(join(installRoot, 'node_modules'), join(root, 'node_modules'));
	return root;
}

interface Written {
	path: string;
	config: {extends: string; include: string[]; compilerOptions: {typeRoots?: string[]}};
}

/** The config written for `root` into a folder of the test's, with its path. */
async function shippedConfig(t: Test, root: string): Promise<Written> {
	const path = await writeShippedTsconfig(root, packageFiles, await tempDir(t, 'hlab-shipped-config-'));
	if (path === null) throw new Error('no config was written');
	return {path, config: JSON.parse(await readFile(path, 'utf8'))};
}

const plain = JSON.stringify({compilerOptions: {module: 'nodenext', types: ['node'], strict: true, rootDir: '.'}, include: ['src', 'test', 'bench']});

t.test('the config includes the folders whose dist/ form the package ships, by absolute path, and extends the checkout\'s', async t => {
	const root = await checkout(t, plain);
	const {config} = await shippedConfig(t, root);
	t.same(config.include, [join(root, 'src')], 'test and bench are left out');
	t.equal(config.extends, join(root, 'tsconfig.json'));
	t.same(config.compilerOptions.typeRoots, [join(root, 'node_modules', '@types')], 'the checkout\'s type roots, which a config elsewhere would not find');
});

t.test('tsc compiles the shipped folder with it, and nothing of the tests', async t => {
	const root = await checkout(t, plain);
	const {path} = await shippedConfig(t, root);
	const out = join(root, 'dist');
	const tsc = join(installRoot, 'node_modules', 'typescript', 'lib', 'tsc.js');
	const run = await runInGroup({argv: [process.execPath, tsc, '-p', path, '--outDir', out], cwd: root, deadlineMs: 120_000});
	t.equal(run.record.exit_code, 0, run.stdout?.toString() ?? '');
	t.ok(existsSync(join(out, 'src', 'main.js')), 'the shipped source is compiled, its node types found');
	t.notOk(existsSync(join(out, 'test')), 'the tests are not');
});

t.test('a checkout that names its own type roots keeps them', async t => {
	const root = await checkout(t, JSON.stringify({compilerOptions: {typeRoots: ['./types']}, include: ['src']}));
	const {config} = await shippedConfig(t, root);
	t.same(config.compilerOptions, {}, 'nothing overrides what the base says');
});

t.test('a tsconfig that is not plain JSON with an include list gets no narrowed config: the checkout\'s own is compiled', async t => {
	for (const [what, text] of [
		['comments', `// the project's config\n${plain}`],
		['files in place of include', JSON.stringify({compilerOptions: {}, files: ['src/main.ts']})],
	] as const) {
		const root = await checkout(t, text);
		t.equal(await writeShippedTsconfig(root, packageFiles, await tempDir(t, 'hlab-shipped-config-')), null, what);
	}
});
