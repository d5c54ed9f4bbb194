import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Test} from 'tap';

/** The committed JSON Schema files in `directory` are exactly `expected` (what the zod schemas generate), no more. */
export async function checkCommittedSchemas(t: Test, directory: string, expected: Map<string, string>, refresh: string): Promise<void> {
	const committed = (await readdir(directory)).filter(name => name.endsWith('.json')).sort();
	t.same(committed, [...expected.keys()].sort(), `the same files (run node ${refresh} to refresh)`);
	for (const [name, text] of expected) t.equal(await readFile(join(directory, name), 'utf8').catch(() => null), text, `${name} is fresh`);
}
