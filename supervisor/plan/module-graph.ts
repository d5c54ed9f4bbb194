import {mkdirSync, readFileSync, readdirSync, rmSync, statSync} from 'node:fs';
import {join} from 'node:path';
import type * as esbuild from 'esbuild';
import {z} from 'zod';
import {bundleChunksHolding} from '../../files/bundle-inputs.js';
import {digestCacheDir} from '../../files/digest-cache.js';
import {writeJsonSync} from '../../files/write-json.js';
import {digestBytes, digestFile, type Digest} from '../../files/digest.js';
import {stampsKey} from '../../files/stamps-key.js';
import {withEsbuild} from '../../process/esbuild-service.js';

export class ModuleGraphError extends Error {
	readonly reason = 'module_graph';
}

/** A graph's files, named relative to the installation with '/' as esbuild does, and their digests (null: unreadable). */
type GraphFiles = Record<string, Digest | null>;
/** A graph and the stamps of its files when their digests were taken (stampsKey; null when one was not settled). */
interface KnownGraph {
	files: GraphFiles;
	stamps: string | null;
}

const known = new Map<string, KnownGraph>();

/**
 * The project files that the compiled entries (paths under `dist/`) import, transitively and themselves
 * included, and the bundle's chunks that hold them, with their digests; packages and Node builtins stay outside. Found from esbuild's metafile.
 * Computed once and reused, in this process and later ones, while every file of the graph keeps its bytes: a new
 * import can only enter the graph through an edit to a file already in it. Every file keeping its settled stamp
 * shows that with one stat each; else each is digested again.
 */
export async function digestModuleGraph(root: string, entries: readonly string[]): Promise<GraphFiles> {
	// The root's package.json and tsconfig.json can change how an import resolves without any file of the graph changing.
	const key = JSON.stringify([root, [...entries].sort(), await digestFile(join(root, 'package.json')), await digestFile(join(root, 'tsconfig.json'))]);
	const cached = known.get(key) ?? readSavedGraph(key);
	if (cached !== undefined) {
		const names = Object.keys(cached.files);
		if (cached.stamps !== null && stampsOf(names, root) === cached.stamps) return keep(key, cached, cached);
		const now = await digestGraph(names, root);
		if (Object.entries(now.files).every(([name, digest]) => digest !== null && digest === cached.files[name])) return keep(key, now, cached);
	}
	const inputs = await bundleInputs(root, entries);
	// The bundle's chunks that carry them are what `hlab` runs: an edit there changes the graph as an edit to dist/ does.
	return keep(key, await digestGraph([...inputs, ...bundleChunksHolding(root, inputs)], root), undefined);
}

/** Keeps the graph for this process, and saves it for later ones unless the saved copy is this one already. */
function keep(key: string, graph: KnownGraph, saved: KnownGraph | undefined): GraphFiles {
	known.set(key, graph);
	if (saved === undefined || saved.stamps !== graph.stamps) saveGraph(key, graph);
	return graph.files;
}

/**
 * Each file's digest, with no digest-cache entry of its own (the graph's stamps stand for them all), and the files'
 * stamps if none moved while they were read.
 */
async function digestGraph(names: string[], root: string): Promise<KnownGraph> {
	const before = stampsOf(names, root);
	const digests = await Promise.all(names.map(name => digestFile(join(root, name), {remember: false})));
	const files = Object.fromEntries(names.map((name, index) => [name, digests[index] ?? null]));
	return {files, stamps: before !== null && stampsOf(names, root) === before ? before : null};
}

/** A link is stamped by the file it leads to, as it is digested. */
function stampsOf(names: string[], root: string): string | null {
	return stampsKey('graph', names.map(name => ({name, path: join(root, name), link: false})));
}

/**
 * `module-graphs/` beside the file digests (digest-cache.ts): graphs found by earlier processes, one file each, named
 * by the digest of its key and checked as above before use, so esbuild runs once per change of the deciding code, not
 * once per attempt (~0.35 s each, measured). One file per graph: every admission reads only the graph it wants (~55 KB),
 * where one file of all 32 was 1.8 MB to read and parse each time.
 */
const SavedGraph = z.object({
	schema: z.literal('harness-lab/module-graph@1'),
	key: z.string(),
	files: z.record(z.string(), z.string().nullable()),
	// Absent in graphs saved before stamps were kept: those are checked file by file once, then saved with them.
	stamps: z.string().nullable().default(null),
});
const savedGraphsKept = 32;

function savedGraphsDir(): string {
	return join(digestCacheDir(), 'module-graphs');
}

function savedGraphPath(key: string): string {
	return join(savedGraphsDir(), `${digestBytes(key).slice('sha256:'.length)}.json`);
}

function readSavedGraph(key: string): KnownGraph | undefined {
	try {
		const saved = SavedGraph.parse(JSON.parse(readFileSync(savedGraphPath(key), 'utf8')));
		return saved.key === key ? {files: saved.files as GraphFiles, stamps: saved.stamps} : undefined;
	} catch {
		// Missing, unreadable or from another version: esbuild finds the graph, and the save replaces the file.
		return undefined;
	}
}

function saveGraph(key: string, graph: KnownGraph): void {
	try {
		mkdirSync(savedGraphsDir(), {recursive: true, mode: 0o700});
		writeJsonSync(savedGraphPath(key), {schema: 'harness-lab/module-graph@1', key, files: graph.files, stamps: graph.stamps}, {atomic: true});
		dropOldGraphs();
	} catch {
		// A graph that cannot be saved only costs the next process an esbuild run.
	}
}

/** The graphs beyond the newest savedGraphsKept go, oldest first: one-off builds (a test's, a copied checkout's) do not pile up. */
function dropOldGraphs(): void {
	const dir = savedGraphsDir();
	const saved = readdirSync(dir).filter(name => name.endsWith('.json')).map(name => ({path: join(dir, name), at: statSync(join(dir, name), {throwIfNoEntry: false})?.mtimeMs ?? 0}));
	for (const old of saved.sort((a, b) => b.at - a.at).slice(savedGraphsKept)) rmSync(old.path, {force: true});
}

/** The one module that imports every entry: one bundle to print instead of one per entry, a third of the time. */
const entriesModule = '(scorer entries)';

/** Bundles the entries without writing anything and returns the project files the metafile lists, sorted. */
async function bundleInputs(root: string, entries: readonly string[]): Promise<string[]> {
	const result = await withEsbuild(api => api.build({
		absWorkingDir: root,
		stdin: {contents: entries.map(entry => `import './dist/${entry}';`).join('\n'), resolveDir: root, sourcefile: entriesModule},
		bundle: true,
		write: false,
		metafile: true,
		platform: 'node',
		format: 'esm',
		packages: 'external',
		logLevel: 'silent',
	})).catch((error: unknown) => {
		throw new ModuleGraphError(`the module graph of the deciding code cannot be computed: ${describeFailure(error)}`, {cause: error});
	});
	// Metafile paths are relative to absWorkingDir with '/' separators, the form a plan records.
	return Object.keys(result.metafile.inputs).filter(name => name !== entriesModule).sort();
}

function describeFailure(error: unknown): string {
	const failure = error as Partial<esbuild.BuildFailure>;
	if (!Array.isArray(failure.errors) || failure.errors.length === 0) return (error as Error).message;
	return failure.errors.map(item => `${item.location === null ? '' : `${item.location.file}: `}${item.text}`).join('; ');
}

