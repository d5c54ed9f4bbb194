import t from 'tap';
import {checkCommittedSchemas} from '../../committed-schemas.js';
import {renderExportSchemas} from '../../../supervisor/export-formats/json-schemas.js';
import {exportSchemaDirectory} from '../../../supervisor/export-formats/write-json-schemas.js';

t.test('the committed JSON Schema files are exactly what the zod schemas generate', async t => {
	const expected = renderExportSchemas();
	await checkCommittedSchemas(t, exportSchemaDirectory, expected, 'dist/supervisor/export-formats/write-json-schemas.js');
	const trajectory = JSON.parse(expected.get('atif-trajectory.json')!);
	t.equal(trajectory.properties.schema_version.const, 'ATIF-v1.7');
	t.same(trajectory.properties.steps.items.properties.source.enum, ['system', 'user', 'agent']);
	t.equal(trajectory.additionalProperties, false, 'unknown fields are refused by the JSON Schema too');
});
