import {z} from 'zod';
import {packageDigest} from './package-digest.js';
import {resolveRuntimePackages, type ResolvedPackage} from './resolve-packages.js';

/**
 * One runtime dependency as installed and loaded: found the way Node finds it from the installation, so a
 * checkout and an installed package are fingerprinted alike, with no lockfile (npm never ships one in a package).
 */
export const PackageFingerprint = z.object({
	name: z.string(),
	/** The installed package.json's version; null when the package is missing or has none. */
	version: z.string().nullable(),
	/** Digest over every file of the package Node can load (nested node_modules, declarations, maps and docs excluded: package-digest.ts); null when it is missing. */
	digest: z.string().nullable(),
});
export type PackageFingerprint = z.infer<typeof PackageFingerprint>;

/** Fingerprints of every package the installation at `root` loads, transitively; sorted, one per distinct copy. */
export async function packageFingerprints(root: string): Promise<PackageFingerprint[]> {
	const found: PackageFingerprint[] = [];
	// One package at a time: each already reads its files in parallel, and open files stay few.
	for (const item of resolveRuntimePackages(root)) found.push(await fingerprint(item));
	const distinct = new Map(found.map(item => [`${item.name} ${item.version} ${item.digest}`, item]));
	return [...distinct.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
}

async function fingerprint(found: ResolvedPackage): Promise<PackageFingerprint> {
	if (found.dir === null) return {name: found.name, version: null, digest: null};
	return {name: found.name, version: found.manifest?.version ?? null, digest: await packageDigest(found.dir)};
}

/** Names every package whose installed copies differ between two fingerprint lists. */
export function packageDifferences(before: PackageFingerprint[], after: PackageFingerprint[]): string[] {
	const was = copiesByName(before);
	const now = copiesByName(after);
	const out: string[] = [];
	for (const name of [...new Set([...was.keys(), ...now.keys()])].sort()) {
		const a = was.get(name);
		const b = now.get(name);
		if (b === undefined) out.push(`package ${name}: no longer installed (was ${a!.join(', ')})`);
		else if (a === undefined) out.push(`package ${name}: newly installed (${b.join(', ')})`);
		else if (a.join() !== b.join()) out.push(`package ${name}: ${a.join(', ')} is now ${b.join(', ')}`);
	}
	return out;
}

function copiesByName(items: PackageFingerprint[]): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const item of items) out.set(item.name, [...out.get(item.name) ?? [], `${item.version ?? '(no version)'}/${item.digest ?? '(missing)'}`].sort());
	return out;
}
