import {lstatSync, renameSync, type Stats} from 'node:fs';
import {basename, dirname, join, resolve} from 'node:path';
import {removeTree} from '../../files/remove-tree.js';
import {holderRuns, readAttemptLock} from '../evidence/attempt-lock.js';
import {UsageError} from '../input-error.js';
import {isAttemptDir} from '../listing/index.js';
import type {GcLine} from './collect-garbage.js';
import {heldPaths, isHeld} from './held-paths.js';
import {liveOutputDirs} from './live-output-dirs.js';
import {treeFacts} from './tree-facts.js';

/** Refuses a named folder gc may not remove: bad input, never a partial removal. */
export class EvidenceRefusedError extends UsageError {
	constructor(message: string, reason: 'not_attempt' | 'evidence_live') {
		super(message, reason);
	}
}

/**
 * Removes the attempts' evidence directories the user named, and nothing else: every one is checked first (a real
 * folder, not a link, that holds an attempt's files; no supervisor of it runs, no live process holds or writes it),
 * and one refusal removes none of them.
 */
export async function removeNamedEvidence(dirs: string[], options: {dryRun: boolean}): Promise<GcLine[]> {
	const paths = [...new Set(dirs.map(dir => resolve(dir)))];
	const live = {held: heldPaths(), writing: liveOutputDirs()};
	for (const path of paths) await refuseUnlessRemovable(path, live);
	const lines: GcLine[] = [];
	for (const path of paths) {
		lines.push({path, kind: 'evidence', what: 'attempt evidence, named', aged: false, bytes: treeFacts(path).bytes, kept: null});
		if (!options.dryRun) await removeCaptured(path);
	}
	return lines;
}

async function refuseUnlessRemovable(path: string, live: {held: string[]; writing: string[]}): Promise<void> {
	const stat = lstatOrNull(path);
	if (stat === null) throw new EvidenceRefusedError(`${path}: no such folder; nothing removed`, 'not_attempt');
	if (!stat.isDirectory()) throw new EvidenceRefusedError(`${path} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}, not an attempt's evidence directory; nothing removed`, 'not_attempt');
	if (!await isAttemptDir(path)) throw new EvidenceRefusedError(`${path} is not an attempt's evidence directory (no plan.json beside attempt.json, ledger.jsonl, report.json or lock.json); nothing removed`, 'not_attempt');
	const lock = readAttemptLock(path);
	if (lock !== null && holderRuns(lock)) throw new EvidenceRefusedError(`${path} is a live attempt: its supervisor runs (pid ${lock.pid}); nothing removed`, 'evidence_live');
	// Inside, or a folder it sits in (a calibration writes DIR/a then DIR/b, and reads both at the end).
	if (live.writing.some(dir => dir === path || dir.startsWith(`${path}/`) || path.startsWith(`${dir}/`))) throw new EvidenceRefusedError(`${path} is where a live hlab process writes; nothing removed`, 'evidence_live');
	if (isHeld(live.held, path)) throw new EvidenceRefusedError(`${path} is in use: a live process holds a file or its working directory there; nothing removed`, 'evidence_live');
}

/** Moved aside under a fresh name first and checked again there, so what is removed is the folder that was checked, even if the name was swapped meanwhile. */
async function removeCaptured(path: string): Promise<void> {
	const captured = join(dirname(path), `.${basename(path)}.gc-${process.pid}-${Date.now()}`);
	renameSync(path, captured);
	if (lstatOrNull(captured)?.isDirectory() !== true || !await isAttemptDir(captured)) {
		// Swapped for something else between the check and the move: put it back untouched.
		renameSync(captured, path);
		throw new EvidenceRefusedError(`${path} changed while it was being removed (no longer an attempt's folder); it was left alone`, 'not_attempt');
	}
	removeTree(captured);
}

function lstatOrNull(path: string): Stats | null {
	try {
		return lstatSync(path);
	} catch {
		return null;
	}
}
