import {adapters} from './adapters/index.js';
import type {AgentPackage, AgentSpec} from './agent-spec.js';
import type {AgentIdentity} from './agent-identity.js';
import {agentIdentity} from './identity-of-spec.js';
import {installAgentPackage, type InstallResult} from './store/install-package.js';
import {agentStoreDir, installDir} from './store/store-root.js';
import {verifyInstall, type VerifyResult} from './store/verify-install.js';

type NoPackage = {ok: false; reason: 'no_package'; message: string; file: null};

/** The package a spec pins, or why there is nothing in the store for it (a `command` that names a script). */
function pinned(spec: AgentSpec): AgentPackage | NoPackage {
	if (spec.package !== undefined) return spec.package;
	const executable = spec.adapter === 'command' ? spec.executable : '';
	return {ok: false, reason: 'no_package', file: null, message: `the command spec names no package: its executable ${executable} is a file beside it, nothing to install`};
}

/** The bin the adapter will start, which the installed package must have. */
function neededBin(spec: AgentSpec): string | null {
	return spec.adapter === 'command' ? spec.executable : adapters[spec.adapter].bin;
}

/** Installs a spec's package into the store (or verifies the copy already there). */
export async function installAgent(spec: AgentSpec, {store = agentStoreDir(), deadlineMs}: {store?: string; deadlineMs?: number} = {}): Promise<InstallResult | NoPackage> {
	const pkg = pinned(spec);
	if ('reason' in pkg) return pkg;
	return installAgentPackage(pkg, {store, neededBin: neededBin(spec), ...(deadlineMs === undefined ? {} : {deadlineMs})});
}

/** Re-computes the digests of a spec's installed package; with them, the agent's identity. */
export async function verifyAgent(spec: AgentSpec, store = agentStoreDir()): Promise<(VerifyResult & {ok: false}) | NoPackage | {ok: true; dir: string; identity: AgentIdentity; files: number}> {
	const pkg = pinned(spec);
	if ('reason' in pkg) return pkg;
	const dir = installDir(store, pkg);
	const verified = await verifyInstall(dir, pkg, neededBin(spec));
	if (!verified.ok) return verified;
	return {ok: true, dir, identity: agentIdentity(spec, verified.manifest), files: Object.keys(verified.manifest.files).length};
}
