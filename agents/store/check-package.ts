import {lstat, readFile} from 'node:fs/promises';
import {join, normalize} from 'node:path';
import type {AgentPackage} from '../agent-spec.js';
import {treeFolder} from './tree-digests.js';

export type PackageCheck = {ok: true; bin: Record<string, string>} | {ok: false; reason: 'package_mismatch' | 'no_bin'; message: string};

/** The installed package's own package.json says it is the pinned release, and the bin the agent needs is a file inside it. */
export async function checkInstalledPackage(dir: string, pkg: AgentPackage, neededBin: string | null): Promise<PackageCheck> {
	const root = join(dir, treeFolder, pkg.name);
	let manifest: {name?: unknown; version?: unknown; bin?: unknown};
	try {
		manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
	} catch (error) {
		return {ok: false, reason: 'package_mismatch', message: `${pkg.name}@${pkg.version}: no readable package.json in the store (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`};
	}
	if (manifest.name !== pkg.name || manifest.version !== pkg.version) {
		return {ok: false, reason: 'package_mismatch', message: `${pkg.name}@${pkg.version}: the installed package.json says ${String(manifest.name)}@${String(manifest.version)}`};
	}
	const bin = binEntries(pkg.name, manifest.bin);
	if (neededBin !== null && bin[neededBin] === undefined) {
		return {ok: false, reason: 'no_bin', message: `${pkg.name}@${pkg.version} has no bin named ${neededBin} (it has: ${Object.keys(bin).join(', ') || 'none'})`};
	}
	for (const [name, path] of Object.entries(bin)) {
		const missing = await notAFileInside(root, path);
		if (missing !== null) return {ok: false, reason: 'no_bin', message: `${pkg.name}@${pkg.version}: bin ${name} (${path}) ${missing}`};
	}
	return {ok: true, bin};
}

/** package.json's `bin`: a string is one bin named for the package (without its scope). */
function binEntries(name: string, bin: unknown): Record<string, string> {
	if (typeof bin === 'string') return {[name.replace(/^@[^/]+\//, '')]: bin};
	if (typeof bin !== 'object' || bin === null) return {};
	return Object.fromEntries(Object.entries(bin).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

async function notAFileInside(root: string, path: string): Promise<string | null> {
	const relative = normalize(path);
	if (relative.startsWith('..') || relative.startsWith('/')) return 'points outside the package';
	const info = await lstat(join(root, relative)).catch(() => null);
	if (info === null) return 'does not exist';
	return info.isFile() ? null : 'is not a regular file';
}
