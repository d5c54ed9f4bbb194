import {cpSync, mkdirSync, readdirSync} from 'node:fs';
import {dirname, join} from 'node:path';
import type {HarborTask} from './harbor-task.js';

/** Lays the Dockerfile's COPY of environment files into an empty workspace, which the agent sees at the WORKDIR. */
export function seedHarborWorkspace(task: Pick<HarborTask, 'dir' | 'copies'>, workspace: string): void {
	mkdirSync(workspace, {recursive: true});
	if (readdirSync(workspace).length > 0) throw new Error(`workspace ${workspace} is not empty`);
	for (const copy of task.copies) {
		const to = join(workspace, copy.to);
		mkdirSync(dirname(to), {recursive: true});
		// Links are copied as links, never followed out of environment/.
		cpSync(join(task.dir, 'environment', copy.from), to, {recursive: true, verbatimSymlinks: true});
	}
}
