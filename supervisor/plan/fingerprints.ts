import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import {digestFile} from '../../files/digest.js';

/** One runtime dependency as installed: what the lock says and the digest of the package.json on disk. */
export const PackageFingerprint = z.object({
	name: z.string(),
	version: z.string().nullable(),
	/** The lock's integrity string; null when the lock has none (linked packages). */
	integrity: z.string().nullable(),
	package_json_digest: z.string().nullable(),
});
export type PackageFingerprint = z.infer<typeof PackageFingerprint>;

const Lock = z.object({
	packages: z.record(z.string(), z.object({
		version: z.string().optional(),
		integrity: z.string().optional(),
		dependencies: z.record(z.string(), z.string()).optional(),
	}).loose()),
}).loose();

/** Fingerprints of the runtime dependencies of the installation at `root`, sorted by name. */
export async function packageFingerprints(root: string): Promise<PackageFingerprint[]> {
	const lock = Lock.parse(JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')));
	const names = Object.keys(lock.packages['']?.dependencies ?? {}).sort();
	const out: PackageFingerprint[] = [];
	for (const name of names) {
		const entry = lock.packages[`node_modules/${name}`];
		out.push({
			name,
			version: entry?.version ?? null,
			integrity: entry?.integrity ?? null,
			package_json_digest: await digestFile(join(root, 'node_modules', name, 'package.json')),
		});
	}
	return out;
}
