import {readFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {digestBytes} from '../../../files/digest.js';
import {removeTree} from '../../../files/remove-tree.js';
import {jsonText} from '../../../files/write-json.js';
import {moveTreeSparse} from '../../evidence/move-sparse.js';
import {keptRuntimeFolder} from '../../evidence/runtime-root.js';
import {type AtifTrajectory, taskTrajectory, trajectoryFile} from '../../export-formats/index.js';
import type {TaskResult} from '../report/report-schema.js';
import {evidenceInMemory, writeEvidenceFile} from './evidence-disk.js';

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


/** The evidence directory a task's folder is in. */
export function evidenceDirOf(paths: TaskPaths): string {
	return paths.dir.slice(0, paths.dir.length - paths.relDir.length - 1);
}

/** A task's folders; `runtimeDir` is the attempt's folder under its runtime root, null to keep the state in the task folder. */
export function taskPaths(evidenceDir: string, relDir: string, runtimeDir: string | null = null): TaskPaths {
	const dir = join(evidenceDir, relDir);
	const runtime = runtimeDir === null ? join(dir, keptRuntimeFolder) : join(runtimeDir, basename(relDir));
	return {relDir, dir, runtime, state: join(runtime, 'state'), session: join(runtime, 'session'), workspace: join(runtime, 'workspace')};
}

/** A task's exported result, and the digest of each file the export wrote, by its name in the evidence directory. */
export interface ExportedEvidence {
	result: TaskResult;
	/** What the ledger's seal takes as written, without reading the files back (`sealedFiles`). */
	written: Map<string, string>;
}

/**
 * Exports a task's evidence out of its runtime state (journal, messages, workspace when kept) and writes result.json;
 * the runtime state stays until the ledger holds the result (`dropRuntimeState`). On any error the runtime state is
 * moved into the task folder (`runtime-state/`) for investigation, so nothing of it is left on a tmpfs.
 */
export async function exportTaskEvidence(paths: TaskPaths, result: TaskResult, keepWorkspace: boolean, attemptId: string): Promise<ExportedEvidence> {
	try {
		return await exportOrThrow(paths, result, keepWorkspace, attemptId);
	} catch (error) {
		await keepForInvestigation(paths);
		throw error;
	}
}

const recordNames = ['journal.jsonl', 'messages.jsonl'];

async function exportOrThrow(paths: TaskPaths, result: TaskResult, keepWorkspace: boolean, attemptId: string): Promise<ExportedEvidence> {
	const evidence: Record<string, string> = {...result.evidence};
	// Every file of the task folder this export writes, by name, with its bytes: written together at the end.
	const files = new Map<string, string | Buffer>();
	for (const name of recordNames) {
		const bytes = readRecord(paths, name);
		if (bytes === null) continue;
		files.set(name, bytes);
		evidence[name.replace('.jsonl', '')] = `${paths.relDir}/${name}`;
	}
	const trajectory = trajectoryOf(paths, result, attemptId, files);
	if (trajectory !== null) {
		files.set(trajectoryFile, jsonText(trajectory));
		evidence.trajectory = `${paths.relDir}/${trajectoryFile}`;
	}
	if (keepWorkspace) {
		// Sparse files stay sparse: the kept workspace takes no more room in the evidence than it did on the runtime root.
		await moveTreeSparse(paths.workspace, join(paths.dir, 'workspace'));
		evidence.workspace = `${paths.relDir}/workspace`;
	}
	evidence.result = `${paths.relDir}/result.json`;
	const exported = {...result, evidence};
	files.set('result.json', jsonText(exported));
	// In place, side by side (in the thread pool on a disk), not fsynced: the ledger record appended next carries this same
	// result durably and seals these bytes' digests; recovery trusts only the ledger, so a file torn by a crash is never taken.
	const inMemory = evidenceInMemory(evidenceDirOf(paths));
	await Promise.all([...files].map(([name, bytes]) => writeEvidenceFile(join(paths.dir, name), bytes, inMemory)));
	return {result: exported, written: new Map([...files].map(([name, bytes]) => [`${paths.relDir}/${name}`, digestBytes(bytes)]))};
}

/** The trajectory from the records just read, still in memory; an agent's messages.jsonl (and journal) are in the task folder already. */
function trajectoryOf(paths: TaskPaths, result: TaskResult, attemptId: string, files: Map<string, string | Buffer>): AtifTrajectory | null {
	const text = (name: string): string | undefined => files.get(name)?.toString('utf8');
	const messages = text('messages.jsonl');
	const journal = text('journal.jsonl') ?? (messages === undefined ? undefined : null);
	return taskTrajectory(paths.dir, `${attemptId}/${basename(paths.relDir)}`, result.usage, messages, journal);
}

/** One of the state's records, as bytes; null when the task left none. */
function readRecord(paths: TaskPaths, name: string): Buffer | null {
	try {
		// Read here, not through the thread pool: the state usually sits on a tmpfs, where the call costs less than the trip.
		return readFileSync(join(paths.state, name));
	} catch (error) {
		// A task that never reached the model has no journal; that is not an export error.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw error;
	}
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
