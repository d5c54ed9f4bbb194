import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {installRoot} from '../files/install-root.js';
import {writeSchemaFiles} from '../files/schema-files.js';
import {renderAgentSchemas} from './json-schemas.js';

/** `agents/schema/` in the source tree, where the compiled script writes too. */
export const agentSchemaDirectory = join(installRoot, 'agents', 'schema');

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeSchemaFiles(agentSchemaDirectory, renderAgentSchemas());
