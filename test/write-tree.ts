import {mkdir, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';

/** Writes each file under `root` by its relative name, its folders made. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
	for (const [name, text] of Object.entries(files)) {
		await mkdir(dirname(join(root, name)), {recursive: true});
		await writeFile(join(root, name), text);
	}
}
