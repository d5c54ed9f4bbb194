import {z} from 'zod';
import {AgentIdentity} from './agent-identity.js';
import {AgentSpec} from './agent-spec.js';
import {InstallManifest} from './store/install-manifest.js';

/** The committed JSON Schema files, by file name under `agents/schema/`. */
const published: Record<string, {title: string; schema: z.ZodType}> = {
	'agent-spec.json': {title: 'agent spec (harness-lab/agent@1)', schema: AgentSpec},
	'agent-identity.json': {title: 'agent identity', schema: AgentIdentity},
	'install-manifest.json': {title: 'agent store install manifest (install.json)', schema: InstallManifest},
};

/**
 * The text of every schema file, generated from the zod schemas. What JSON Schema cannot say (an adapter's reserved
 * flags, a command's executable relative to the spec) is checked by read-agent-spec.ts alone.
 */
export function renderAgentSchemas(): Map<string, string> {
	const files = new Map<string, string>();
	for (const [name, {title, schema}] of Object.entries(published)) {
		const {$schema, ...rest} = z.toJSONSchema(schema, {target: 'draft-2020-12', io: 'input', unrepresentable: 'throw'});
		files.set(name, `${JSON.stringify({$schema, title: `harness-lab ${title}`, ...rest}, null, '\t')}\n`);
	}
	return files;
}
