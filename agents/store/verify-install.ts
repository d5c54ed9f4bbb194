import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {AgentPackage} from '../agent-spec.js';
import {checkInstalledPackage} from './check-package.js';
import {InstallManifest, installManifestName} from './install-manifest.js';
import {currentTreeDigest, treeDigest, treeDigests} from './tree-digests.js';

export type VerifyResult =
	| {ok: true; manifest: InstallManifest}
	| {ok: false; reason: 'not_installed' | 'bad_manifest' | 'package_mismatch' | 'no_bin' | 'changed'; message: string; file: string | null};

/** Re-computes a store folder's digests against its install.json and names the first file that is not as installed. */
export async function verifyInstall(dir: string, pkg: AgentPackage, neededBin: string | null): Promise<VerifyResult> {
	const manifest = await readManifest(dir, pkg);
	if ('reason' in manifest) return manifest;
	const checked = await checkInstalledPackage(dir, pkg, neededBin);
	if (!checked.ok) return {...checked, file: null};
	// The whole tree as recorded, and a manifest whose table is the one its digest names: nothing to look at file by file.
	if ((await currentTreeDigest(dir)) === manifest.digest && treeDigest(manifest.files) === manifest.digest) return {ok: true, manifest};
	const found = await treeDigests(dir);
	const changed = firstDifference(manifest.files, found);
	if (changed !== null) return {ok: false, reason: 'changed', file: changed.file, message: `${pkg.name}@${pkg.version} in ${dir}: ${changed.file} ${changed.how} since it was installed`};
	// The table matched file by file; a digest that disagrees with it means install.json itself was edited.
	if (treeDigest(found) !== manifest.digest) return {ok: false, reason: 'bad_manifest', file: installManifestName, message: `${join(dir, installManifestName)}: its digest is not the digest of its own file table`};
	return {ok: true, manifest};
}

async function readManifest(dir: string, pkg: AgentPackage): Promise<InstallManifest | {ok: false; reason: 'not_installed' | 'bad_manifest'; message: string; file: string | null}> {
	const path = join(dir, installManifestName);
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch {
		return {ok: false, reason: 'not_installed', file: null, message: `${pkg.name}@${pkg.version} is not installed in the store (no ${path}): run hlab agents install`};
	}
	let json: unknown = null;
	try {
		json = JSON.parse(text);
	} catch {}
	const parsed = InstallManifest.safeParse(json);
	if (!parsed.success) return {ok: false, reason: 'bad_manifest', file: installManifestName, message: `${path} is not an install manifest`};
	if (parsed.data.package.name !== pkg.name || parsed.data.package.version !== pkg.version) {
		return {ok: false, reason: 'bad_manifest', file: installManifestName, message: `${path} records ${parsed.data.package.name}@${parsed.data.package.version}, not ${pkg.name}@${pkg.version}`};
	}
	return parsed.data;
}

/** The first file, in name order, that was changed, removed or added. */
function firstDifference(recorded: Record<string, string>, found: Record<string, string>): {file: string; how: string} | null {
	const names = [...new Set([...Object.keys(recorded), ...Object.keys(found)])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	for (const file of names) {
		if (!Object.hasOwn(found, file)) return {file, how: 'was removed'};
		if (!Object.hasOwn(recorded, file)) return {file, how: 'was added'};
		if (recorded[file] !== found[file]) return {file, how: 'changed'};
	}
	return null;
}
