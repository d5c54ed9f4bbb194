import {copyFileSync, renameSync} from 'node:fs';
import {join} from 'node:path';
import {removeTree} from '../../files/remove-tree.js';
import {writeJsonSync} from '../../files/write-json.js';
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

/** A rename; a copy when the runtime state sits on another filesystem. */
function moveFile(from: string, to: string): void {
	try {
		renameSync(from, to);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
		copyFileSync(from, to);
	}
}

/**
 * Moves a task's evidence out of its runtime state (journal, messages, workspace when kept), writes result.json,
 * and only then removes the runtime state. On any error the runtime state stays for investigation.
 * Synchronous: a few small files, for which a trip through the thread pool costs more than the call.
 */
export function exportTaskEvidence(paths: TaskPaths, result: TaskResult, keepWorkspace: boolean): TaskResult {
	const evidence: Record<string, string> = {...result.evidence};
	for (const name of ['journal.jsonl', 'messages.jsonl']) {
		try {
			moveFile(join(paths.state, name), join(paths.dir, name));
			evidence[name.replace('.jsonl', '')] = `${paths.relDir}/${name}`;
		} catch (error) {
			// A task that never reached the model has no journal; that is not an export error.
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
		}
	}
	if (keepWorkspace) {
		renameSync(paths.workspace, join(paths.dir, 'workspace'));
		evidence.workspace = `${paths.relDir}/workspace`;
	}
	evidence.result = `${paths.relDir}/result.json`;
	const exported = {...result, evidence};
	// Durable before the runtime state goes: the result is the task's evidence from here on.
	writeJsonSync(join(paths.dir, 'result.json'), exported, {durable: true});
	removeTree(paths.runtime);
	return exported;
}
