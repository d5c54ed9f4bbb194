import {join} from 'node:path';
import {walkTreeSync} from '../../files/walk-tree.js';
import {hiddenFolders} from './harbor-task.js';

/** The task's own files (instruction, task.toml, environment/ and the rest), its tests/ and solution/ left out. */
export function taskSourceFiles(dir: string): string[] {
	return walkTreeSync(dir, {skip: name => hiddenFolders.some(folder => name.startsWith(`${folder}/`))}).map(file => file.path);
}

/** The verifier's files: everything under tests/. */
export function verifierFiles(dir: string): string[] {
	return walkTreeSync(join(dir, 'tests')).map(file => file.path);
}
