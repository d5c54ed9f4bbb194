import {join} from 'node:path';
import type * as esbuild from 'esbuild';
import {digestFile, type Digest} from '../../files/digest.js';
import {withEsbuild} from '../../process/esbuild-service.js';

export class ModuleGraphError extends Error {
	readonly reason = 'module_graph';
}

/** A graph's files, named relative to the installation with '/' as esbuild does, and their digests (null: unreadable). */
type GraphFiles = Record<string, Digest | null>;

const known = new Map<string, GraphFiles>();

/**
 * The project files that the compiled entries (paths under `dist/`) import, transitively and themselves
 * included, with their digests; packages and Node builtins stay outside. Found from esbuild's metafile.
 * Computed once per process and reused while every file of the graph keeps its bytes: a new import can only
 * enter the graph through an edit to a file already in it.
 */
export async function digestModuleGraph(root: string, entries: readonly string[]): Promise<GraphFiles> {
	const key = JSON.stringify([root, [...entries].sort()]);
	const cached = known.get(key);
	if (cached !== undefined) {
		const now = await digestNames(Object.keys(cached), root);
		if (Object.entries(now).every(([name, digest]) => digest !== null && digest === cached[name])) return now;
	}
	const files = await digestNames(await bundleInputs(root, entries), root);
	known.set(key, files);
	return files;
}

async function digestNames(names: string[], root: string): Promise<GraphFiles> {
	const digests = await Promise.all(names.map(name => digestFile(join(root, name))));
	return Object.fromEntries(names.map((name, index) => [name, digests[index] ?? null]));
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

