import {isAbsolute, join} from 'node:path';
import type * as esbuild from 'esbuild';
import {digestFile, type Digest} from '../../files/digest.js';

export class ModuleGraphError extends Error {
	readonly reason = 'module_graph';
}

interface KnownGraph {
	names: string[];
	digests: Array<Digest | null>;
}

const known = new Map<string, KnownGraph>();

/**
 * The project files that the compiled entries (paths under `dist/`) import, transitively and themselves
 * included, as names relative to `root`; packages and Node builtins stay outside. Found from esbuild's metafile.
 * Computed once per process and reused while every file of the graph keeps its bytes: a new import can only
 * enter the graph through an edit to a file already in it.
 */
export async function moduleGraph(root: string, entries: readonly string[]): Promise<string[]> {
	const key = JSON.stringify([root, [...entries].sort()]);
	const cached = known.get(key);
	if (cached !== undefined && await unchanged(cached, root)) return cached.names;
	const names = await bundleInputs(root, entries);
	known.set(key, {names, digests: await digestsOf(names, root)});
	return names;
}

async function unchanged(graph: KnownGraph, root: string): Promise<boolean> {
	const now = await digestsOf(graph.names, root);
	return now.every((digest, index) => digest !== null && digest === graph.digests[index]);
}

function digestsOf(names: string[], root: string): Promise<Array<Digest | null>> {
	return Promise.all(names.map(name => digestFile(isAbsolute(name) ? name : join(root, name))));
}

/** Bundles the entries without writing anything and returns the inputs the metafile lists, sorted. */
async function bundleInputs(root: string, entries: readonly string[]): Promise<string[]> {
	const result = await withEsbuild(api => api.build({
		absWorkingDir: root,
		entryPoints: entries.map(entry => `dist/${entry}`),
		bundle: true,
		write: false,
		metafile: true,
		platform: 'node',
		format: 'esm',
		packages: 'external',
		// Required with several entries; nothing is written.
		outdir: 'module-graph',
		logLevel: 'silent',
	})).catch((error: unknown) => {
		throw new ModuleGraphError(`the module graph of ${entries.join(', ')} cannot be computed: ${describeFailure(error)}`, {cause: error});
	});
	// Metafile paths are relative to absWorkingDir with '/' separators, the form a plan records.
	return Object.keys(result.metafile.inputs).sort();
}

function describeFailure(error: unknown): string {
	const failure = error as Partial<esbuild.BuildFailure>;
	if (!Array.isArray(failure.errors) || failure.errors.length === 0) return (error as Error).message;
	return failure.errors.map(item => `${item.location === null ? '' : `${item.location.file}: `}${item.text}`).join('; ');
}

let building = 0;

/** esbuild keeps a service process between builds; it is stopped once no graph is being computed, so none is left behind. */
async function withEsbuild<T>(build: (api: typeof esbuild) => Promise<T>): Promise<T> {
	// Loaded on first use: most commands never freeze or admit a plan.
	const api = await import('esbuild');
	building += 1;
	try {
		return await build(api);
	} finally {
		building -= 1;
		if (building === 0) await api.stop();
	}
}
