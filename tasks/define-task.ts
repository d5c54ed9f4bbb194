import {copyFileSync, mkdirSync, readdirSync} from 'node:fs';
import {join, relative} from 'node:path';
import {installRoot} from '../files/install-root.js';
import {walkTreeSync} from '../files/walk-tree.js';
import type {ReferenceScript} from './reference/reference-script.js';
import type {Grade, GradeOptions, TaskDefinition} from './task-definition.js';

/** Where a task's sources live; tasks are resolved from the project root so they work from dist/. */
export function taskDir(id: string): string {
	return join(installRoot, 'tasks', id);
}

/** A file of the task's original setup data (under tasks/<id>/files). */
export function taskFile(id: string, relative: string): string {
	return join(taskDir(id), 'files', relative);
}

/** A grader data file (under tasks/<id>/expected), never copied into the workspace. */
export function expectedFile(id: string, relative: string): string {
	return join(taskDir(id), 'expected', relative);
}

export interface TaskSpec {
	id: string;
	title: string;
	prompt: string;
	tools: string[];
	grade(workspace: string, options: GradeOptions): Promise<Grade>;
	reference: ReferenceScript;
}

/** The folders and files under `dir`, relative, parents before children. */
function treeOf(dir: string): {dirs: string[]; files: string[]} {
	const entries = readdirSync(dir, {recursive: true, withFileTypes: true});
	const relativeOf = (entry: {parentPath: string; name: string}): string => relative(dir, join(entry.parentPath, entry.name));
	return {
		dirs: entries.filter(entry => entry.isDirectory()).map(relativeOf).sort(),
		files: entries.filter(entry => entry.isFile()).map(relativeOf),
	};
}

/** Builds a TaskDefinition whose setup copies tasks/<id>/files and whose sources are its folder: definition, reference, data. */
export function defineTask(spec: TaskSpec): TaskDefinition {
	const dir = taskDir(spec.id);
	// Listed once: every setup of the task copies the same tree (copyFile keeps each file's mode).
	let tree: {dirs: string[]; files: string[]} | null = null;
	return {
		...spec,
		// The task's own folder; the code it shares with other tasks is found from its module graph at freeze.
		sourceFiles: () => walkTreeSync(dir).map(file => file.path),
		async setup(workspace) {
			// A handful of small files: synchronous calls cost less than trips through the thread pool.
			mkdirSync(workspace, {recursive: true});
			if (readdirSync(workspace).length > 0) throw new Error(`workspace ${workspace} is not empty`);
			tree ??= treeOf(join(dir, 'files'));
			for (const folder of tree.dirs) mkdirSync(join(workspace, folder));
			for (const file of tree.files) copyFileSync(join(dir, 'files', file), join(workspace, file));
		},
	};
}
