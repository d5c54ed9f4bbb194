import {mkdir, mkdtemp, rename, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {removeTree} from '../../files/remove-tree.js';
import {writeJson} from '../../files/write-json.js';
import type {AgentPackage} from '../agent-spec.js';
import {checkInstalledPackage} from './check-package.js';
import {type InstallManifest, installManifestName} from './install-manifest.js';
import {installDeadlineMs, npmInstall, npmVersion} from './run-npm.js';
import {installDir} from './store-root.js';
import {treeDigest, treeDigests} from './tree-digests.js';
import {verifyInstall, type VerifyResult} from './verify-install.js';

export interface InstallOptions {
	store: string;
	/** The bin the agent will start; null when any package will do (a `command` spec names its own). */
	neededBin: string | null;
	deadlineMs?: number;
}

type Refusal = Extract<VerifyResult, {ok: false}> | {ok: false; reason: 'not_found' | 'npm_failed'; message: string; file: null};

/** `installed` is false when the store already held this package@version and it verified. */
export type InstallResult = {ok: true; installed: boolean; dir: string; manifest: InstallManifest} | Refusal;

/**
 * Puts one package@version in the store: installed into a hidden folder beside its place, verified, its
 * manifest written, then renamed into place, so the store never holds a half-installed package under its name.
 * A package already there is not installed again, only verified.
 */
export async function installAgentPackage(pkg: AgentPackage, options: InstallOptions): Promise<InstallResult> {
	const dir = installDir(options.store, pkg);
	if (await exists(dir)) return reverify(dir, pkg, options.neededBin);
	await mkdir(options.store, {recursive: true});
	const staging = await mkdtemp(join(options.store, '.installing-'));
	try {
		const staged = await stage(staging, pkg, options);
		if (!staged.ok) return staged;
		try {
			await rename(staging, dir);
		} catch (error) {
			// Another install of the same package@version finished first: theirs stands, and is verified like any other.
			if (['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) return reverify(dir, pkg, options.neededBin);
			throw error;
		}
		return {ok: true, installed: true, dir, manifest: staged.manifest};
	} finally {
		if (await exists(staging)) removeTree(staging);
	}
}

async function reverify(dir: string, pkg: AgentPackage, neededBin: string | null): Promise<InstallResult> {
	const verified = await verifyInstall(dir, pkg, neededBin);
	return verified.ok ? {ok: true, installed: false, dir, manifest: verified.manifest} : verified;
}

/** npm install, the package's own check, then the manifest: everything that happens before the folder gets its name. */
async function stage(staging: string, pkg: AgentPackage, options: InstallOptions): Promise<{ok: true; manifest: InstallManifest} | Refusal> {
	// A package.json of its own makes the folder npm's project root: without one npm walks up and may install into a parent.
	await writeFile(join(staging, 'package.json'), '{"private": true}\n');
	const installed = await npmInstall(staging, pkg, options.deadlineMs ?? installDeadlineMs);
	if (!installed.ok) return {...installed, file: null};
	const checked = await checkInstalledPackage(staging, pkg, options.neededBin);
	if (!checked.ok) return {...checked, file: null};
	const files = await treeDigests(staging);
	const manifest: InstallManifest = {
		schema: 'harness-lab/agent-install@1',
		package: pkg,
		bin: checked.bin,
		digest: treeDigest(files),
		files,
		installed_at: new Date().toISOString(),
		npm_version: await npmVersion(),
	};
	await writeJson(join(staging, installManifestName), manifest, {exclusive: true, durable: true});
	return {ok: true, manifest};
}

async function exists(path: string): Promise<boolean> {
	return (await stat(path).catch(() => null)) !== null;
}
