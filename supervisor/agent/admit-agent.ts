import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {identifyAgent, readAgentSpec, type AgentIdentity, type LoadedSpec} from '../../agents/index.js';

/** An agent spec read, its installed package verified file by file, its identity measured: ready to run tasks. */
export interface AdmittedAgent {
	loaded: LoadedSpec;
	identity: AgentIdentity;
	/** The package's folder in the store; null for a command that names a script beside its spec. */
	packageDir: string | null;
	systemPrompt: string | null;
}

export type AgentAdmission = {ok: true; agent: AdmittedAgent} | {ok: false; message: string};

/**
 * Reads the spec and verifies what it pins in the store (`HLAB_AGENT_STORE` or the user's cache): an installed
 * package whose files changed since its install is refused with the first changed file named.
 */
export async function admitAgent(specPath: string, store?: string): Promise<AgentAdmission> {
	const read = await readAgentSpec(specPath);
	if (!read.ok) return {ok: false, message: read.message};
	const {loaded} = read;
	const identified = await identifyAgent(loaded, store);
	// The store's message names the first file that changed, was added or removed.
	if (!identified.ok) return {ok: false, message: `the agent of ${loaded.path} is refused: ${identified.message}`};
	const prompt = loaded.spec.config.system_prompt_file;
	const systemPrompt = prompt === undefined ? null : await readFile(join(loaded.dir, prompt), 'utf8');
	return {ok: true, agent: {loaded, identity: identified.identity, packageDir: identified.packageDir, systemPrompt}};
}
