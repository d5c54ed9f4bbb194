import {mkdir, readdir, rm, writeFile} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {renderExportSchemas} from './json-schemas.js';

/** `supervisor/export-formats/schema/` in the source tree, from either the source or the compiled script. */
export const exportSchemaDirectory = sourceSchemaDirectory(dirname(fileURLToPath(import.meta.url)));

function sourceSchemaDirectory(here: string): string {
	return basename(dirname(dirname(here))) === 'dist' ? join(here, '..', '..', '..', 'supervisor', 'export-formats', 'schema') : join(here, 'schema');
}

/** Rewrites the committed schema files from the zod schemas and removes stale ones. */
async function writeExportSchemas(directory = exportSchemaDirectory): Promise<string[]> {
	await mkdir(directory, {recursive: true});
	const files = renderExportSchemas();
	for (const name of await readdir(directory)) {
		if (name.endsWith('.json') && !files.has(name)) await rm(join(directory, name));
	}
	for (const [name, text] of files) await writeFile(join(directory, name), text);
	return [...files.keys()];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const written = await writeExportSchemas();
	process.stdout.write(`wrote ${written.length} schema files to ${exportSchemaDirectory}\n`);
}
