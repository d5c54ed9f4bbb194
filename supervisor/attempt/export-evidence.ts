import {copyFile, rename, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {TaskResult} from './report-schema.js';

export interface TaskPaths {
	/** Relative to the evidence directory, e.g. `tasks/001-x`. */
	relDir: string;
	dir: string;
	runtime: string;
	state: string;
	session: string;
	workspace: string;
}

export function taskPaths(evidenceDir: string, relDir: string): TaskPaths {
	const dir = join(evidenceDir, relDir);
	const runtime = join(dir, 'runtime-state');
	return {relDir, dir, runtime, state: join(runtime, 'state'), session: join(runtime, 'session'), workspace: join(runtime, 'workspace')};
}

/**
 * Moves a task's evidence out of its runtime state (journal, messages, workspace when kept), writes result.json,
 * and only then removes the runtime state. On any error the runtime state stays for investigation.
 */
export async function exportTaskEvidence(paths: TaskPaths, result: TaskResult, keepWorkspace: boolean): Promise<TaskResult> {
	const evidence: Record<string, string> = {...result.evidence};
	for (const name of ['journal.jsonl', 'messages.jsonl']) {
		try {
			await copyFile(join(paths.state, name), join(paths.dir, name));
			evidence[name.replace('.jsonl', '')] = `${paths.relDir}/${name}`;
		} catch (error) {
			// A task that never reached the model has no journal; that is not an export error.
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
		}
	}
	if (keepWorkspace) {
		await rename(paths.workspace, join(paths.dir, 'workspace'));
		evidence.workspace = `${paths.relDir}/workspace`;
	}
	evidence.result = `${paths.relDir}/result.json`;
	const exported = {...result, evidence};
	await writeFile(join(paths.dir, 'result.json'), `${JSON.stringify(exported, null, 2)}\n`);
	await rm(paths.runtime, {recursive: true, force: true});
	return exported;
}
