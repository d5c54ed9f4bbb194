import {mkdirSync} from 'node:fs';
import {join, sep} from 'node:path';
import {jsonText, writeJsonSync} from '../../../files/write-json.js';
import {evidenceDirOf, type TaskPaths} from './export-evidence.js';
import {evidenceInMemory, makeEvidenceFolder, writeEvidenceFile} from './evidence-disk.js';

/**
 * A task's folder and its fresh runtime state, with its own copy of the configuration taken before its setup can
 * touch anything, and `runtime-locations.json` saying where the state lives so a recovery can find it.
 * The task folder's calls go through the thread pool where the evidence is on a disk (creating a file there is slow); the
 * runtime state's are synchronous (usually a tmpfs, where the call costs less than the trip).
 */
export async function prepareTaskFolders(paths: TaskPaths, configuration: unknown): Promise<void> {
	const inMemory = evidenceInMemory(evidenceDirOf(paths));
	const folder = makeEvidenceFolder(paths.dir, inMemory);
	// Without a runtime root the state lives inside the task folder, which must exist first.
	const inside = paths.runtime.startsWith(`${paths.dir}${sep}`);
	// Not fsynced: runtime-root.json, written durably before any task, already names the root; this file adds the task's folders.
	const locations = folder.then(() => writeEvidenceFile(join(paths.dir, 'runtime-locations.json'), jsonText({
		schema: 'harness-lab/runtime-locations@1', state: paths.state, session: paths.session, workspace: paths.workspace,
	}), inMemory));
	const runtime = (inside ? folder : Promise.resolve()).then(() => makeRuntimeState(paths, configuration));
	await Promise.all([locations, runtime]);
}

function makeRuntimeState(paths: TaskPaths, configuration: unknown): void {
	// The runtime folder's parent (the attempt's runtime root, or the task folder) exists already.
	for (const folder of [paths.runtime, paths.state, paths.session, paths.workspace]) mkdirSync(folder);
	writeJsonSync(join(paths.session, 'configuration.json'), configuration);
}
