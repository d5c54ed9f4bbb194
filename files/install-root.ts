import {fileURLToPath} from 'node:url';
import {join} from 'node:path';

/** The harness-lab installation this code runs from (the folder holding package.json and dist/); compiled code sits in dist/files/. */
export const installRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

/** The compiled file of a module path of the project, e.g. `workers/task-worker.js`. */
export function distPath(relative: string): string {
	return join(installRoot, 'dist', relative);
}
