import {renderSchemaFiles, type PublishedSchema} from '../files/schema-files.js';
import {AgentIdentity} from './agent-identity.js';
import {AgentSpec} from './agent-spec.js';
import {InstallManifest} from './store/install-manifest.js';

/** The committed JSON Schema files, by file name under `agents/schema/`. */
const published: Record<string, PublishedSchema> = {
	'agent-spec.json': {title: 'agent spec (harness-lab/agent@1)', schema: AgentSpec},
	'agent-identity.json': {title: 'agent identity', schema: AgentIdentity},
	'install-manifest.json': {title: 'agent store install manifest (install.json)', schema: InstallManifest},
};

/**
 * The text of every schema file, generated from the zod schemas. What JSON Schema cannot say (an adapter's reserved
 * flags, a command's executable relative to the spec) is checked by read-agent-spec.ts alone.
 */
export function renderAgentSchemas(): Map<string, string> {
	return renderSchemaFiles(published, 'harness-lab ', 'input');
}
