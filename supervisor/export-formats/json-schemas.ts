import {renderSchemaFiles, type PublishedSchema} from '../../files/schema-files.js';
import {AtifTrajectory} from './atif/atif-schema.js';

/** The committed JSON Schema files, by file name under `supervisor/export-formats/schema/`. */
const published: Record<string, PublishedSchema> = {
	'atif-trajectory.json': {title: 'ATIF v1.7 trajectory (trajectory.json), as harness-lab writes and checks it', schema: AtifTrajectory},
};

/**
 * The text of every schema file, generated from the zod schemas. What JSON Schema cannot say (step ids in order, the
 * model's fields on agent steps only, a result answering a call of its own step) is checked by the zod schema alone.
 */
export function renderExportSchemas(): Map<string, string> {
	return renderSchemaFiles(published, 'harness-lab ');
}
