import {existsSync, readdirSync} from 'node:fs';
import {join, resolve} from 'node:path';

/** The task folders under `dir`: the folder itself when it holds a task.toml, else each folder in it that does, by name. */
export function findHarborTasks(dir: string): string[] {
	const root = resolve(dir);
	if (existsSync(join(root, 'task.toml'))) return [root];
	if (!existsSync(root)) return [];
	return readdirSync(root, {withFileTypes: true})
		.filter(entry => entry.isDirectory() && existsSync(join(root, entry.name, 'task.toml')))
		.map(entry => join(root, entry.name))
		.sort();
}
