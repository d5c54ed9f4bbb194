#!/usr/bin/env node
// Bundles the compiled CLI, and every file the CLI starts as its own process or thread, into DIST/bundle/ (default
// dist/): one file set with shared chunks instead of ~700 ES modules per start (bench/README.md, "The bundle").
// Usage: node scripts/bundle.mjs [DIST]. Run after tsc (npm run build; a host build runs it on its own dist/).
import {rm, writeFile} from 'node:fs/promises';
import {basename, dirname, join, relative, resolve, sep} from 'node:path';
import {pathToFileURL} from 'node:url';
import {build} from 'esbuild';

const dist = resolve(process.argv[2] ?? 'dist');
const out = join(dist, 'bundle');

/**
 * Each starts a process or a thread of its own. They sit flat in the bundle beside the chunks, at the depth of dist/'s
 * own folders, so `installRoot` ('../../') holds from any chunk, `distPath` maps an entry by its file name, and a
 * module's sibling URL (process/ may not import files/: spawner-main.js, bridge-main.js) names the bundled sibling.
 */
const entries = [
	'cli/main.js',
	'cli/host-worker.js',
	'workers/task-worker.js',
	'workers/task-runner.js',
	'process/spawner/spawner-main.js',
	'process/sandbox/bridge-main.js',
	'scripted/server-main.js',
	'cartridges/evaluation-main.js',
];

const external = [
	// They start workers or binaries from files beside their own code, found relative to it: bundled, they would look in dist/bundle/.
	'piscina', 'pino', 'thread-stream', 'bullmq', 'ioredis', 'esbuild',
	// CommonJS imported only dynamically (read-cartridge.ts, read-agent-spec.ts): bundled, import() would give `default` alone, not `parse`.
	'yaml',
];

/** The installation's suite (graders, expected data, reference answers): sandboxes hide these folders, so chunks carrying their code are listed to be hidden too. */
const suiteFolders = ['tasks', 'examples', 'test'];

/**
 * zod's namespace re-exports its 60-odd translations of error messages: half of its 755 kB chunk, read, decoded and
 * compiled by every process and thread that loads it. The project's messages are zod's English ones, which zod
 * imports by itself; `z.locales` keeps `en` alone (bench/README.md, "zod without its translations").
 */
const englishOnly = {
	name: 'zod-english-only',
	setup(bundle) {
		bundle.onResolve({filter: /\/locales\/index\.js$/}, args => (/[/\\]node_modules[/\\]zod[/\\]/.test(args.importer) ? {path: resolve(dirname(args.importer), '../locales/en.js'), namespace: 'zod-english'} : undefined));
		bundle.onLoad({filter: /.*/, namespace: 'zod-english'}, args => ({contents: `export {default as en} from ${JSON.stringify(args.path)};`, resolveDir: dirname(args.path)}));
	},
};

const names = entries.map(entry => basename(entry));
if (new Set(names).size !== names.length) throw new Error(`bundle entries must have distinct file names: ${names.join(', ')}`);

// A bundle of an earlier build would leave its chunks behind, digested and loaded by nobody.
await rm(out, {recursive: true, force: true});
const result = await build({
	absWorkingDir: dist,
	entryPoints: Object.fromEntries(entries.map(entry => [basename(entry, '.js'), join(dist, entry)])),
	outdir: out,
	chunkNames: '[name]-[hash]',
	bundle: true,
	splitting: true,
	format: 'esm',
	platform: 'node',
	target: 'node22',
	external,
	plugins: [englishOnly],
	// CommonJS packages inlined into ES chunks call require(); each chunk gets its own.
	banner: {js: "import {createRequire as __hlabCreateRequire} from 'node:module'; const require = __hlabCreateRequire(import.meta.url);"},
	// Linked maps that chain to tsc's: with --enable-source-maps a stack names the .ts files.
	sourcemap: 'linked',
	metafile: true,
	logLevel: 'warning',
});

const suiteChunks = Object.entries(result.metafile.outputs)
	.filter(([file, output]) => file.endsWith('.js') && Object.keys(output.inputs).some(input => suiteFolders.some(folder => input.startsWith(`${folder}/`))))
	.map(([file]) => relative(out, resolve(dist, file)).split(sep).join('/'))
	.sort();
// Each file inlined (the project's compiled files, the packages' files) by the chunk that holds it, both named from the
// installation: the scorer's identity digests the chunks of its files too, and tests list the modules a run loaded.
const fromRoot = file => relative(dirname(dist), resolve(dist, file)).split(sep).join('/');
// A module the bundler made (a plugin's namespace: zod's English-only locales) is no file, and left out.
const isFile = input => !/^[a-z-]+:/.test(input);
const chunkOf = Object.entries(result.metafile.outputs).flatMap(([file, output]) => Object.keys(output.inputs).filter(isFile).map(input => [fromRoot(input), fromRoot(file)]));
await writeFile(join(out, 'inputs.json'), `${JSON.stringify(Object.fromEntries(chunkOf.sort(([a], [b]) => (a < b ? -1 : 1))), null, '\t')}\n`);
await writeFile(join(out, 'bundle.json'), `${JSON.stringify({entries: Object.fromEntries(entries.map(entry => [entry, basename(entry)])), suite_chunks: suiteChunks}, null, '\t')}\n`);
// The chunks' package scope, found at once: without it Node's module loader looked for dist/bundle/package.json and
// dist/package.json again each time (a miss is not cached), ~20 times a task on the supervisor's thread (strace).
await writeFile(join(out, 'package.json'), `${JSON.stringify({type: 'module'})}\n`);
// The tokenizer's ranks as a table that a scripted server reads at once instead of indexing them (scripted/rank-table.ts).
const {cl100kTable, rankTablePath} = await import(pathToFileURL(join(dist, 'scripted', 'tokenizer.js')).href);
await writeFile(rankTablePath, await cl100kTable());
