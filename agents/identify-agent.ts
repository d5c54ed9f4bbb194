import {join} from 'node:path';
import {digestFile} from '../files/digest.js';
import type {AgentIdentity} from './agent-identity.js';
import {agentIdentity} from './identity-of-spec.js';
import {installAgent, verifyAgent} from './agent-store.js';
import type {LoadedSpec} from './read-agent-spec.js';

export type IdentifiedAgent = {ok: true; identity: AgentIdentity; packageDir: string | null} | {ok: false; message: string};

/**
 * What an attempt or a freeze records of a spec's agent: a packaged one's installation verified file by file (the
 * first changed file named; one not in the store yet is installed), or a command's script beside the spec digested by its bytes.
 */
export async function identifyAgent(loaded: LoadedSpec, store?: string): Promise<IdentifiedAgent> {
	const verified = await installedOrInstall(loaded, store);
	if (verified.ok) return {ok: true, identity: verified.identity, packageDir: verified.dir};
	if (verified.reason !== 'no_package' || loaded.spec.adapter !== 'command') return {ok: false, message: verified.message};
	const digest = await digestFile(join(loaded.dir, loaded.spec.executable));
	if (digest === null) return {ok: false, message: `${loaded.path}: its executable ${loaded.spec.executable} cannot be read`};
	return {ok: true, identity: agentIdentity(loaded.spec, null, digest), packageDir: null};
}

/** The verified installation; a package not in the store yet is installed first (a changed one is never reinstalled: it is refused). */
async function installedOrInstall(loaded: LoadedSpec, store?: string): ReturnType<typeof verifyAgent> {
	const verified = await verifyAgent(loaded.spec, store);
	if (verified.ok || verified.reason !== 'not_installed') return verified;
	const installed = await installAgent(loaded.spec, store === undefined ? {} : {store});
	if (!installed.ok) return {...verified, message: `${verified.message.replace(/: run hlab agents install$/, '')}, and installing it failed: ${installed.message}`};
	return verifyAgent(loaded.spec, store);
}
