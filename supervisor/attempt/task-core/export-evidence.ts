import {readFileSync, writeFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {removeTree} from '../../../files/remove-tree.js';
import {writeJsonSync} from '../../../files/write-json.js';
import {moveTreeSparse} from '../../evidence/move-sparse.js';
import {keptRuntimeFolder} from '../../evidence/runtime-root.js';
import {writeTaskTrajectory} from '../../export-formats/index.js';
import type {TaskResult} from '../report/report-schema.js';

export interface TaskPaths {
	/** Relative to the evidence directory, e.g. `tasks/001-x`. */
	relDir: string;
	dir: string;
	/** The task's runtime state: under the attempt's runtime root, or `runtime-state/` in the task folder. */
	runtime: string;
	state: string;
	session: string;
	workspace: string;
}


/** A task's folders; `runtimeDir` is the attempt's folder under its runtime root, null to keep the state in the task folder. */
export function taskPaths(evidenceDir: string, relDir: string, runtimeDir: string | null = null): TaskPaths {
	const dir = join(evidenceDir, relDir);
	const runtime = runtimeDir === null ? join(dir, keptRuntimeFolder) : join(runtimeDir, basename(relDir));
	return {relDir, dir, runtime, state: join(runtime, 'state'), session: join(runtime, 'session'), workspace: join(runtime, 'workspace')};
}

/**
 * Exports a task's evidence out of its runtime state (journal, messages, workspace when kept) and writes result.json;
 * the runtime state stays until the ledger holds the result (`dropRuntimeState`). On any error the runtime state is
 * moved into the task folder (`runtime-state/`) for investigation, so nothing of it is left on a tmpfs.
 */
export async function exportTaskEvidence(paths: TaskPaths, result: TaskResult, keepWorkspace: boolean, attemptId: string): Promise<TaskResult> {
	try {
		return await exportOrThrow(paths, result, keepWorkspace, attemptId);
	} catch (error) {
		await keepForInvestigation(paths);
		throw error;
	}
}

async function exportOrThrow(paths: TaskPaths, result: TaskResult, keepWorkspace: boolean, attemptId: string): Promise<TaskResult> {
	const evidence: Record<string, string> = {...result.evidence};
	const copied = new Map<string, string>();
	for (const name of ['journal.jsonl', 'messages.jsonl']) {
		const text = copyRecord(paths, name);
		if (text === null) continue;
		copied.set(name, text);
		evidence[name.replace('.jsonl', '')] = `${paths.relDir}/${name}`;
	}
	// From the records just copied, still in memory; an agent's messages.jsonl is in the task folder already.
	const trajectory = writeTaskTrajectory(paths.dir, `${attemptId}/${basename(paths.relDir)}`, result.usage, copied.get('messages.jsonl'), copied.has('messages.jsonl') ? copied.get('journal.jsonl') ?? null : undefined);
	if (trajectory !== null) evidence.trajectory = `${paths.relDir}/${trajectory}`;
	if (keepWorkspace) {
		// Sparse files stay sparse: the kept workspace takes no more room in the evidence than it did on the runtime root.
		await moveTreeSparse(paths.workspace, join(paths.dir, 'workspace'));
		evidence.workspace = `${paths.relDir}/workspace`;
	}
	evidence.result = `${paths.relDir}/result.json`;
	const exported = {...result, evidence};
	// Atomic, not fsynced: the ledger record appended next carries this same result durably, and recovery trusts only the ledger.
	writeJsonSync(join(paths.dir, 'result.json'), exported, {atomic: true});
	return exported;
}

/** Copies one of the state's records into the task folder and returns its text; null when the task left none. */
function copyRecord(paths: TaskPaths, name: string): string | null {
	let bytes: Buffer;
	try {
		// A copy, not a rename: the state usually sits on a tmpfs, and the runtime state is removed as a whole below.
		bytes = readFileSync(join(paths.state, name));
	} catch (error) {
		// A task that never reached the model has no journal; that is not an export error.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw error;
	}
	// The bytes as they were; only the trajectory reads them as text.
	writeFileSync(join(paths.dir, name), bytes);
	return bytes.toString('utf8');
}

/** Removes a task's runtime state once its result is in the ledger: until then a recovery can still export the state. */
export function dropRuntimeState(paths: TaskPaths): void {
	try {
		removeTree(paths.runtime);
	} catch {
		// Left in place: the attempt's close moves what remains of its runtime root into the task folders.
	}
}

/** A failed export keeps the runtime state, in the task folder where the evidence directory keeps it. */
async function keepForInvestigation(paths: TaskPaths): Promise<void> {
	const kept = join(paths.dir, keptRuntimeFolder);
	if (paths.runtime === kept) return;
	try {
		await moveTreeSparse(paths.runtime, kept);
	} catch {
		// Left where it is; the attempt's close moves what remains of its runtime root.
	}
}
