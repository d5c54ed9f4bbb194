import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {writeJsonSync} from '../../../files/write-json.js';
import type {TaskPaths} from './export-evidence.js';

/**
 * A task's folder and its fresh runtime state, with its own copy of the configuration taken before its setup can
 * touch anything, and `runtime-locations.json` saying where the state lives so a recovery can find it.
 * Synchronous: a few small files, for which a trip through the thread pool costs more than the call.
 */
export function prepareTaskFolders(paths: TaskPaths, configuration: unknown): void {
	mkdirSync(paths.dir, {recursive: true});
	// The runtime folder's parent (the attempt's runtime root, or the task folder) exists already.
	for (const folder of [paths.runtime, paths.state, paths.session, paths.workspace]) mkdirSync(folder);
	writeJsonSync(join(paths.session, 'configuration.json'), configuration);
	// Not fsynced: runtime-root.json, written durably before any task, already names the root; this file adds the task's folders.
	writeJsonSync(join(paths.dir, 'runtime-locations.json'), {
		schema: 'harness-lab/runtime-locations@1', state: paths.state, session: paths.session, workspace: paths.workspace,
	});
}
