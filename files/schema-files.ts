import {mkdir, readdir, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';

/** A committed JSON Schema file: its title and the zod schema it is generated from. */
export interface PublishedSchema {
	title: string;
	schema: z.ZodType;
}

/** The text of each file, generated from its zod schema; `io` says which side of a transform the file describes. */
export function renderSchemaFiles(published: Record<string, PublishedSchema>, titlePrefix: string, io: 'input' | 'output' = 'output'): Map<string, string> {
	const files = new Map<string, string>();
	for (const [name, {title, schema}] of Object.entries(published)) {
		const {$schema, ...rest} = z.toJSONSchema(schema, {target: 'draft-2020-12', io, unrepresentable: 'throw'});
		files.set(name, `${JSON.stringify({$schema, title: `${titlePrefix}${title}`, ...rest}, null, '\t')}\n`);
	}
	return files;
}

/** Rewrites a folder of committed schema files and removes the stale ones; says what it wrote. */
export async function writeSchemaFiles(directory: string, files: Map<string, string>): Promise<void> {
	await mkdir(directory, {recursive: true});
	for (const name of await readdir(directory)) {
		if (name.endsWith('.json') && !files.has(name)) await rm(join(directory, name));
	}
	for (const [name, text] of files) await writeFile(join(directory, name), text);
	process.stdout.write(`wrote ${files.size} schema files to ${directory}\n`);
}
