import {mkdir, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';

/** Writes a case's task.files into its fresh workspace; a file that already exists is an error, never overwritten. */
export async function seedWorkspace(workspace: string, files: Record<string, string>): Promise<void> {
	await mkdir(workspace, {recursive: true});
	for (const [path, content] of Object.entries(files)) {
		await mkdir(dirname(join(workspace, path)), {recursive: true});
		await writeFile(join(workspace, path), content, {flag: 'wx'});
	}
}
