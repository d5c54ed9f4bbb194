import t from 'tap';
import {checkCommittedSchemas} from '../committed-schemas.js';
import {renderJsonSchemas} from '../../controller-protocol/json-schemas.js';
import {schemaDirectory} from '../../controller-protocol/write-json-schemas.js';

t.test('the committed JSON Schema files are exactly what the zod schemas generate', async t => {
	const expected = renderJsonSchemas();
	await checkCommittedSchemas(t, schemaDirectory, expected, 'dist/controller-protocol/write-json-schemas.js');
});

t.test('the JSON Schemas describe the same messages as the zod schemas', async t => {
	const schedule = JSON.parse(renderJsonSchemas().get('schedule-response.json')!);
	t.same(schedule.properties.result.properties.concurrency, {type: 'integer', minimum: 1, maximum: 256});
	t.same(schedule.required, ['version', 'result']);
	const request = JSON.parse(renderJsonSchemas().get('request.json')!);
	t.same(request.oneOf.map((branch: {properties: {method: {const: string}}}) => branch.properties.method.const), ['tasks', 'schedule', 'setup', 'score', 'accept']);
});
