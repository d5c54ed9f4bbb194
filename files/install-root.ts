import {readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

/**
 * The harness-lab installation this code runs from (the folder holding package.json and dist/): compiled code sits in
 * dist/files/, bundled code in dist/bundle/ (scripts/bundle.mjs keeps every chunk at that depth).
 */
export const installRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

/** Where scripts/bundle.mjs writes the bundle: the CLI's entries and their shared chunks, flat. */
const bundleDir = join(installRoot, 'dist', 'bundle');

/** Whether this module runs from the bundle (then its processes and threads start bundled entries too). */
const bundled = dirname(fileURLToPath(import.meta.url)) === bundleDir;

/** `dist/bundle/bundle.json`: each bundled entry by its compiled path, and the chunks that carry the suite's code. */
interface BundleManifest {
	entries: Record<string, string>;
	suite_chunks: string[];
}

let manifest: BundleManifest | null | undefined;

/** The bundle's manifest; null when there is no bundle (a tsc-only build). */
function bundleManifest(): BundleManifest | null {
	if (manifest === undefined) {
		try {
			// Checked by hand, not by zod: `hlab --help` loads this module and no zod.
			const read = JSON.parse(readFileSync(join(bundleDir, 'bundle.json'), 'utf8')) as Partial<BundleManifest> | null;
			if (typeof read?.entries !== 'object' || read.entries === null || !Array.isArray(read.suite_chunks)) throw new Error(`${join(bundleDir, 'bundle.json')} is not a bundle manifest`);
			manifest = {entries: read.entries, suite_chunks: read.suite_chunks};
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
			manifest = null;
		}
	}
	return manifest;
}

/**
 * The file to run for a module path of the project, e.g. `workers/task-worker.js`: its bundled entry when this code
 * runs from the bundle and the bundle has one, else the compiled file (also for folders, e.g. `tasks`).
 */
export function distPath(relative: string): string {
	const entries = bundled ? bundleManifest()?.entries : undefined;
	const entry = entries !== undefined && Object.hasOwn(entries, relative) ? entries[relative] : undefined;
	return entry === undefined ? join(installRoot, 'dist', relative) : join(bundleDir, entry);
}

/** The bundle's chunks that hold the suite's code (graders, expected data): hidden wherever the suite's folders are. */
export function suiteChunkPaths(): string[] {
	return (bundleManifest()?.suite_chunks ?? []).map(chunk => join(bundleDir, chunk));
}
