import {cp, mkdir, readdir} from 'node:fs/promises';
import {readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {projectRoot} from '../engine/project-root.js';
import type {ReferenceScript} from '../engine/scripted/reference-script.js';
import type {Grade, GradeOptions, TaskDefinition} from './task-definition.js';

/** Where a task's sources live; tasks are resolved from the project root so they work from dist/. */
export function taskDir(id: string): string {
	return join(projectRoot, 'tasks', id);
}

/** A file of the task's original setup data (under tasks/<id>/files). */
export function taskFile(id: string, relative: string): string {
	return join(taskDir(id), 'files', relative);
}

/** A grader data file (under tasks/<id>/expected), never copied into the workspace. */
export function expectedFile(id: string, relative: string): string {
	return join(taskDir(id), 'expected', relative);
}

function filesUnder(dir: string): string[] {
	let names: string[];
	try {
		names = readdirSync(dir, {recursive: true, encoding: 'utf8'});
	} catch {
		return [];
	}
	return names.map(name => join(dir, name)).filter(path => statSync(path).isFile()).sort();
}

/** The sources every task shares: the definition and grading helpers. */
function sharedSources(): string[] {
	const dir = join(projectRoot, 'tasks');
	return [
		...['index.ts', 'task-definition.ts', 'define-task.ts', 'required-tools.ts'].map(name => join(dir, name)),
		...filesUnder(join(dir, 'grading')).filter(path => path.endsWith('.ts')),
		...filesUnder(join(dir, 'reference')).filter(path => path.endsWith('.ts')),
		join(projectRoot, 'engine', 'scripted', 'observations.ts'),
	];
}

export interface TaskSpec {
	id: string;
	title: string;
	prompt: string;
	tools: string[];
	grade(workspace: string, options: GradeOptions): Promise<Grade>;
	reference: ReferenceScript;
}

/** Builds a TaskDefinition whose setup copies tasks/<id>/files and whose sources include its data and code. */
export function defineTask(spec: TaskSpec): TaskDefinition {
	const dir = taskDir(spec.id);
	return {
		...spec,
		sourceFiles: () => [
			join(dir, 'task.ts'),
			join(dir, 'reference.ts'),
			...filesUnder(join(dir, 'files')),
			...filesUnder(join(dir, 'expected')),
			...sharedSources(),
		],
		async setup(workspace) {
			await mkdir(workspace, {recursive: true});
			if ((await readdir(workspace)).length > 0) throw new Error(`workspace ${workspace} is not empty`);
			await cp(join(dir, 'files'), workspace, {recursive: true});
		},
	};
}
