import {isAbsolute, join, resolve} from 'node:path';
import {digestCacheDir} from '../../files/digest-cache.js';
import type {AgentPackage} from '../agent-spec.js';

/** Overrides the store's folder (tests, a shared machine). */
export const storeVariable = 'HLAB_AGENT_STORE';

/** harness-lab's own store of agent packages: `$HLAB_AGENT_STORE`, else `agents/` in the user's harness-lab cache. */
export function agentStoreDir(env: NodeJS.ProcessEnv = process.env): string {
	const override = env[storeVariable];
	if (override !== undefined && override !== '') return isAbsolute(override) ? override : resolve(override);
	return join(digestCacheDir(env), 'agents');
}

/** The folder of one package@version: a scope's slash becomes `+`, so every install is one folder directly in the store. */
export function installDir(store: string, pkg: AgentPackage): string {
	return join(store, `${pkg.name.replace('/', '+')}@${pkg.version}`);
}
