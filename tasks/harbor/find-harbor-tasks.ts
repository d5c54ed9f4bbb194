import {existsSync, readdirSync, realpathSync} from 'node:fs';
import {join} from 'node:path';

/**
 * The task folders under `dir`: the folder itself when it holds a task.toml, else each folder in it that does, by name.
 * Real paths, links resolved: a folder hidden from the agent by a linked name would still show at its real one.
 */
export function findHarborTasks(dir: string): string[] {
	if (!existsSync(dir)) return [];
	const root = realpathSync(dir);
	if (existsSync(join(root, 'task.toml'))) return [root];
	return readdirSync(root, {withFileTypes: true})
		.filter(entry => entry.isDirectory() && existsSync(join(root, entry.name, 'task.toml')))
		.map(entry => realpathSync(join(root, entry.name)))
		.sort();
}
