import {z} from 'zod';
import {AtifTrajectory} from './atif/atif-schema.js';

/** The committed JSON Schema files, by file name under `supervisor/export-formats/schema/`. */
const published: Record<string, {title: string; schema: z.ZodType}> = {
	'atif-trajectory.json': {title: 'ATIF v1.7 trajectory (trajectory.json), as harness-lab writes and checks it', schema: AtifTrajectory},
};

/**
 * The text of every schema file, generated from the zod schemas. What JSON Schema cannot say (step ids in order, the
 * model's fields on agent steps only, a result answering a call of its own step) is checked by the zod schema alone.
 */
export function renderExportSchemas(): Map<string, string> {
	const files = new Map<string, string>();
	for (const [name, {title, schema}] of Object.entries(published)) {
		const {$schema, ...rest} = z.toJSONSchema(schema, {target: 'draft-2020-12', io: 'output', unrepresentable: 'throw'});
		files.set(name, `${JSON.stringify({$schema, title: `harness-lab ${title}`, ...rest}, null, '\t')}\n`);
	}
	return files;
}
