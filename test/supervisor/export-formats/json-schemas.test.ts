import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {renderExportSchemas} from '../../../supervisor/export-formats/json-schemas.js';
import {exportSchemaDirectory} from '../../../supervisor/export-formats/write-json-schemas.js';

t.test('the committed JSON Schema files are exactly what the zod schemas generate', async t => {
	const expected = renderExportSchemas();
	const committed = (await readdir(exportSchemaDirectory)).filter(name => name.endsWith('.json')).sort();
	t.same(committed, [...expected.keys()].sort(), 'the same files (run node dist/supervisor/export-formats/write-json-schemas.js to refresh)');
	for (const [name, text] of expected) t.equal(await readFile(join(exportSchemaDirectory, name), 'utf8').catch(() => null), text, `${name} is fresh`);
	const trajectory = JSON.parse(expected.get('atif-trajectory.json')!);
	t.equal(trajectory.properties.schema_version.const, 'ATIF-v1.7');
	t.same(trajectory.properties.steps.items.properties.source.enum, ['system', 'user', 'agent']);
	t.equal(trajectory.additionalProperties, false, 'unknown fields are refused by the JSON Schema too');
});
