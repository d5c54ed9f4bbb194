import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {installRoot} from '../../files/install-root.js';
import {writeSchemaFiles} from '../../files/schema-files.js';
import {renderExportSchemas} from './json-schemas.js';

/** `supervisor/export-formats/schema/` in the source tree, where the compiled script writes too. */
export const exportSchemaDirectory = join(installRoot, 'supervisor', 'export-formats', 'schema');

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeSchemaFiles(exportSchemaDirectory, renderExportSchemas());
