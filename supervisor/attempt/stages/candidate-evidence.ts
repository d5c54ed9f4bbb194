import {copyFile, mkdir} from 'node:fs/promises';
import {basename, join} from 'node:path';
import {compileCandidate} from '../../../engine/index.js';
import type {CandidateSnapshot} from '../../../engine/candidate/snapshot.js';
import {installRoot} from '../../../files/install-root.js';
import {writeBytes, writeJson} from '../../../files/write-json.js';
import {walkTree} from '../../../files/walk-tree.js';
import type {Report} from '../report/report-schema.js';

export type PreparedCandidate =
	| {ok: true; snapshot: CandidateSnapshot}
	| {ok: false; message: string};

/**
 * Compiles the candidate once, through the engine's snapshot adapter, and keeps its source, the compiled
 * snapshot and the SDK it was built against in `DIR/candidate/`; every task then loads this same snapshot.
 */
export async function prepareCandidate(file: string, evidenceDir: string): Promise<PreparedCandidate> {
	const dir = join(evidenceDir, 'candidate');
	await mkdir(join(dir, 'sdk'), {recursive: true});
	let snapshot: CandidateSnapshot;
	try {
		snapshot = await compileCandidate(file);
	} catch (error) {
		try {
			await copyFile(file, join(dir, basename(file)));
		} catch {
			// An unreadable source is the very failure being reported.
		}
		return {ok: false, message: `the candidate ${file} did not compile: ${(error as Error).message}`};
	}
	await writeBytes(join(dir, basename(snapshot.source_path)), snapshot.source);
	await writeBytes(join(dir, 'snapshot.mjs'), snapshot.code);
	const {source: _source, code: _code, ...digests} = snapshot;
	await writeJson(join(dir, 'snapshot.json'), digests);
	for (const file of await walkTree(join(installRoot, 'sdk'), {suffixes: ['.ts']})) await copyFile(file.path, join(dir, 'sdk', basename(file.path)));
	return {ok: true, snapshot};
}

/** The candidate as the attempt record and the report name it: where it came from and what was loaded. */
export function candidateIdentity(candidate: CandidateSnapshot | null): Report['candidate'] {
	if (candidate === null) return null;
	return {source_path: candidate.source_path, source_digest: candidate.source_digest, code_digest: candidate.code_digest, sdk_digest: candidate.sdk_digest};
}
