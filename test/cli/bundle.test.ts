import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {mkdir, readdir, readFile, utimes, writeFile} from 'node:fs/promises';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import t from 'tap';
import {distPath, installRoot, suiteChunkPaths} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const bundleDir = join(installRoot, 'dist', 'bundle');

/**
 * A preload that records, per process and thread, every file: module it loads, as it loads it (a provider's process and
 * the task pool's threads are ended, not exited).
 */
const recorder = `import module from 'node:module';
import {appendFileSync} from 'node:fs';
import {threadId} from 'node:worker_threads';
const file = process.env.HLAB_TEST_LOADED + '/' + process.pid + '-' + threadId + '.txt';
module.registerHooks({load(url, context, next) { if (url.startsWith('file:')) appendFileSync(file, url + '\\n'); return next(url, context); }});
`;

/** The project's files each recorded process or thread loaded (packages left out), relative to the installation. */
async function projectFilesLoaded(dir: string): Promise<Map<string, string[]>> {
	const loaded = new Map<string, string[]>();
	for (const name of await readdir(dir)) {
		const urls = (await readFile(join(dir, name), 'utf8')).split('\n').filter(line => line !== '');
		const files = urls.map(url => relative(installRoot, fileURLToPath(url))).filter(file => !file.startsWith('..') && !file.startsWith('node_modules/'));
		loaded.set(name, files);
	}
	return loaded;
}

t.test('an hlab process and the processes and threads it starts run from dist/bundle/, a few files each', async t => {
	const dir = await tempDir(t, 'hlab-bundle-');
	const record = join(dir, 'loaded');
	await writeFile(join(dir, 'recorder.mjs'), recorder);
	await mkdir(record);
	const env = {NODE_OPTIONS: `--import=${join(dir, 'recorder.mjs')}`, HLAB_TEST_LOADED: record};
	const freeze = await hlab(['eval', '--task', 'answer_from_prompt', '--freeze', 'plan.json'], {cwd: dir, env});
	t.equal(freeze.record.exit_code, 0, freeze.stderr);
	const run = await hlab(['eval', '--plan', 'plan.json', '--artifacts', 'run'], {cwd: dir, env, timeoutMs: 180_000});
	t.equal(run.record.exit_code, 0, run.stderr);
	const loaded = await projectFilesLoaded(record);
	// The two hlab processes, the attempt's task worker thread and its scripted provider's process, at least.
	t.ok(loaded.size >= 4, `${loaded.size} processes and threads recorded`);
	for (const [name, files] of loaded) {
		t.strictSame(files.filter(file => !file.startsWith('dist/bundle/') && file !== 'bin/hlab.js'), [], `${name}: every project file from the bundle`);
		t.ok(files.length < 150, `${name}: ${files.length} files (unbundled, an attempt's main thread loads ~700)`);
	}
	const entries = [...loaded.values()].flat().filter(file => !/-[A-Z0-9]{8}\.js$/.test(file));
	for (const entry of ['dist/bundle/main.js', 'dist/bundle/task-worker.js', 'dist/bundle/server-main.js']) t.ok(entries.includes(entry), `${entry} ran`);
});

t.test('from the bundle, the files started as their own processes and threads are its entries; others stay compiled', async t => {
	const manifest = JSON.parse(readFileSync(join(bundleDir, 'bundle.json'), 'utf8')) as {entries: Record<string, string>};
	t.ok(Object.keys(manifest.entries).length >= 8, 'the CLI, the host worker and the six files it starts');
	// This test file runs compiled, not bundled: distPath names the compiled files.
	t.equal(distPath('workers/task-worker.js'), join(installRoot, 'dist', 'workers', 'task-worker.js'));
	t.equal(distPath('tasks'), join(installRoot, 'dist', 'tasks'));
	const chunk = readdirSync(bundleDir).find(name => /^chunk-.*\.js$/.test(name) && readFileSync(join(bundleDir, name), 'utf8').includes('function distPath('))!;
	const bundled = await import(join(bundleDir, chunk)) as Record<string, unknown>;
	const bundledDistPath = Object.values(bundled).find(value => typeof value === 'function' && value.name === 'distPath') as typeof distPath;
	t.equal(bundledDistPath('workers/task-worker.js'), join(bundleDir, 'task-worker.js'), 'an entry: the bundled file');
	t.equal(bundledDistPath('tasks/grading/node-test-reporter.js'), join(installRoot, 'dist', 'tasks', 'grading', 'node-test-reporter.js'), 'the reporter, copied alone: compiled');
	t.equal(bundledDistPath('tasks'), join(installRoot, 'dist', 'tasks'), 'a folder: compiled');
});

t.test('every file the code starts through distPath is a bundle entry, but the reporter copied alone', async t => {
	const manifest = JSON.parse(readFileSync(join(bundleDir, 'bundle.json'), 'utf8')) as {entries: Record<string, string>};
	const sources = readdirSync(join(installRoot, 'dist'), {recursive: true, encoding: 'utf8'})
		.filter(name => name.endsWith('.js') && !/^(bundle|test|bench)\//.test(name)).map(name => readFileSync(join(installRoot, 'dist', name), 'utf8'));
	const started = [...new Set(sources.flatMap(text => [...text.matchAll(/distPath\('([^']+\.js)'\)/g)].map(match => match[1]!)))].sort();
	t.ok(started.includes('workers/task-worker.js'), `started: ${started.join(', ')}`);
	t.strictSame(started.filter(file => manifest.entries[file] === undefined), ['tasks/grading/node-test-reporter.js']);
});

// The suite's folders are hidden from sandboxed commands by folder; the bundle inlines their code into chunks, which are hidden by name.
t.test('every chunk that carries the suite\'s code (graders, expected answers) is listed to be hidden', async t => {
	const listed = new Set(suiteChunkPaths());
	t.ok(listed.size > 0, 'the bundle has suite chunks');
	// esbuild names each inlined module in a comment: `// tasks/answer_from_prompt/task.js`.
	const carrying = readdirSync(bundleDir).filter(name => name.endsWith('.js')).map(name => join(bundleDir, name))
		.filter(file => /^\/\/ (tasks|examples|test)\//m.test(readFileSync(file, 'utf8')));
	t.strictSame(carrying.filter(file => !listed.has(file)), [], 'no unlisted chunk holds suite code');
	t.ok(carrying.some(file => /expected\d* = "12:25"/.test(readFileSync(file, 'utf8'))), 'answer_from_prompt\'s expected answer is in a listed chunk');
});

// A module that names a file beside itself (process/ may not import files/: spawner-main.js, bridge-main.js) names it beside its chunk.
t.test('every file a bundled module names beside itself (new URL(..., import.meta.url)) is in the bundle', async t => {
	const named = readdirSync(bundleDir).filter(name => name.endsWith('.js'))
		.flatMap(name => [...readFileSync(join(bundleDir, name), 'utf8').matchAll(/new URL\("\.\/([^"]+)", import\.meta\.url\)/g)].map(match => match[1]!));
	t.ok(named.includes('spawner-main.js') && named.includes('bridge-main.js'), `named: ${named.join(', ')}`);
	t.strictSame(named.filter(name => !existsSync(join(bundleDir, name))), [], 'each is there');
});

// Every process and thread reads, decodes and compiles the chunk zod is in: its sixty-odd translations were half of it.
t.test('zod is bundled with its English messages alone', async t => {
	const chunks = readdirSync(bundleDir).filter(name => name.endsWith('.js')).map(name => readFileSync(join(bundleDir, name), 'utf8'));
	const locales = chunks.flatMap(text => [...text.matchAll(/^\/\/ \.\.\/node_modules\/zod\/v4\/locales\/(\S+)$/gm)].map(match => match[1]!));
	t.strictSame(locales, ['en.js'], 'no translation but English is inlined');
	const zodChunk = readdirSync(bundleDir).find(name => name.endsWith('.js') && readFileSync(join(bundleDir, name), 'utf8').includes('\n// ../node_modules/zod/v4/core/schemas.js\n'))!;
	const exported = Object.values(await import(join(bundleDir, zodChunk)) as Record<string, unknown>);
	const z = exported.find((value): value is typeof import('zod').z => typeof (value as {string?: unknown} | null)?.string === 'function')!;
	t.strictSame(Object.keys(z.locales), ['en'], 'z.locales keeps English');
	t.equal(z.string().safeParse(1).error?.issues[0]?.message, 'Invalid input: expected string, received number', 'messages are zod\'s English ones');
});

// Node gives a CommonJS package's named exports to import(); esbuild's chunk of one exports `default` alone (yaml's `parse` was lost).
t.test('no chunk is a CommonJS package that only a dynamic import reaches', async t => {
	const alone = readdirSync(bundleDir).filter(name => name.endsWith('.js') && /^export default require_\w+\(\);$/m.test(readFileSync(join(bundleDir, name), 'utf8')));
	t.strictSame(alone, []);
});

t.test('a bundle older than the compiled files (tsc ran alone) is not run: the launcher runs the newer compiled code and says so', async t => {
	const root = await tempDir(t, 'hlab-stale-bundle-');
	await mkdir(join(root, 'bin'));
	await mkdir(join(root, 'dist', 'cli'), {recursive: true});
	await mkdir(join(root, 'dist', 'bundle'));
	await writeFile(join(root, 'bin', 'hlab.js'), await readFile(join(installRoot, 'bin', 'hlab.js')));
	await writeFile(join(root, 'dist', 'cli', 'main.js'), 'console.log("compiled");\n');
	await writeFile(join(root, 'dist', 'bundle', 'main.js'), 'console.log("bundle");\n');
	await writeFile(join(root, 'dist', 'bundle', 'bundle.json'), '{}\n');
	const launch = async () => runInGroup({argv: [process.execPath, join(root, 'bin', 'hlab.js'), '--help'], deadlineMs: 30_000});
	const older = new Date(Date.now() - 60_000);
	await utimes(join(root, 'dist', 'cli', 'main.js'), older, older);
	const fresh = await launch();
	t.equal(fresh.stdout?.toString(), 'bundle\n', 'a bundle as new as the compiled files runs');
	t.equal(fresh.stderr?.toString(), '');
	await utimes(join(root, 'dist', 'bundle', 'bundle.json'), new Date(older.getTime() - 60_000), new Date(older.getTime() - 60_000));
	const stale = await launch();
	t.equal(stale.stdout?.toString(), 'compiled\n', 'the compiled files run when the bundle is older');
	t.match(stale.stderr?.toString(), /^hlab: dist\/bundle\/ is older than dist\/ .*npm run build/);
});
