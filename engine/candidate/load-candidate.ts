import {basename, extname} from 'node:path';
import {sha256} from '../../files/sha256.js';
import {EngineError} from '../engine-error.js';
import {activatePlugin} from '../plugins/activate-plugin.js';
import type {LoadedPlugin} from '../plugins/loaded-plugin.js';
import {CandidateSnapshot} from './snapshot.js';

/** The plugin id a candidate gets when `initialize()` names none: its file's base name. */
export function defaultPluginId(sourcePath: string): string {
	return basename(sourcePath, extname(sourcePath)).replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'candidate';
}

/** Imports a snapshot's compiled code (never the source file again) and returns its module namespace. */
export async function importSnapshot(snapshot: CandidateSnapshot): Promise<Record<string, unknown>> {
	const checked = CandidateSnapshot.safeParse(snapshot);
	if (!checked.success) throw new EngineError('init', `not a candidate snapshot: ${checked.error.issues[0]?.message ?? 'invalid'}`);
	if (sha256(snapshot.code) !== snapshot.code_digest) throw new EngineError('init', 'the snapshot\'s code does not match its code digest');
	if (sha256(snapshot.source) !== snapshot.source_digest) throw new EngineError('init', 'the snapshot\'s source does not match its source digest');
	try {
		return await import(`data:text/javascript;base64,${Buffer.from(snapshot.code).toString('base64')}`) as Record<string, unknown>;
	} catch (error) {
		throw new EngineError('init', `loading the candidate failed: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
	}
}

/** Loads a snapshot and activates it: `initialize()`, capability checks, readiness. Failures are `init` errors. */
export async function loadCandidate(snapshot: CandidateSnapshot): Promise<LoadedPlugin> {
	const module = await importSnapshot(snapshot);
	return activatePlugin(module.default, {
		defaultId: defaultPluginId(snapshot.source_path),
		origin: {kind: 'candidate', source_path: snapshot.source_path, source_digest: snapshot.source_digest, code_digest: snapshot.code_digest},
	});
}
