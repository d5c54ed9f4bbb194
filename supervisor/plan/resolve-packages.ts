import {existsSync, readFileSync, realpathSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {z} from 'zod';

/** The fields of an installed package.json that say who it is and what it loads. */
const Manifest = z.object({
	name: z.string().optional(),
	version: z.string().optional(),
	dependencies: z.record(z.string(), z.string()).optional(),
	optionalDependencies: z.record(z.string(), z.string()).optional(),
}).loose();
type Manifest = z.infer<typeof Manifest>;

/** One package as Node would load it: its real folder and its manifest, or null when the name resolves nowhere. */
export interface ResolvedPackage {
	name: string;
	dir: string | null;
	manifest: Manifest | null;
}

/**
 * Every package the installation at `root` can load at run time: its `dependencies` and, transitively, theirs
 * (with `optionalDependencies` that are present), each resolved from the real folder of the package that needs it.
 * Synchronous: a few hundred look-ups of cached folders, each far cheaper than a trip through the thread pool, and a
 * miss costs no error and its stack (every attempt resolves the installation's ~80 packages).
 */
export function resolveRuntimePackages(root: string): ResolvedPackage[] {
	const top = readManifest(root);
	const seen = new Map<string, ResolvedPackage>();
	const missing: ResolvedPackage[] = [];
	const queue: Array<{from: string; manifest: Manifest}> = [{from: realpathSync(root), manifest: top ?? {}}];
	while (queue.length > 0) {
		const {from, manifest} = queue.shift()!;
		for (const [name, optional] of wantedNames(manifest)) {
			const dir = findPackageDir(name, from);
			if (dir === null) {
				// A required package that is absent is recorded as unknown; an absent optional one is simply not installed.
				if (!optional) missing.push({name, dir: null, manifest: null});
				continue;
			}
			if (seen.has(dir)) continue;
			const found = readManifest(dir);
			seen.set(dir, {name, dir, manifest: found});
			queue.push({from: dir, manifest: found ?? {}});
		}
	}
	return [...seen.values(), ...missing];
}

function wantedNames(manifest: Manifest): Array<[string, boolean]> {
	const required = Object.keys(manifest.dependencies ?? {});
	const optional = Object.keys(manifest.optionalDependencies ?? {}).filter(name => !required.includes(name));
	return [...required.map(name => [name, false] as [string, boolean]), ...optional.map(name => [name, true] as [string, boolean])];
}

/** Node's lookup for a bare name from a folder (each node_modules up the tree, nearest first), followed to the real folder. */
function findPackageDir(name: string, from: string): string | null {
	for (const modules of createRequire(join(from, 'package.json')).resolve.paths(name) ?? []) {
		if (!existsSync(join(modules, name, 'package.json'))) continue;
		try {
			return realpathSync(join(modules, name));
		} catch {
			// Listed but not readable to the end: Node looks in the next node_modules up, as for a miss.
		}
	}
	return null;
}

function readManifest(dir: string): Manifest | null {
	try {
		return Manifest.parse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
	} catch {
		return null;
	}
}
