import {mkdir} from 'node:fs/promises';
import {basename, join, resolve} from 'node:path';
import {pinnedCopy} from '../../files/pinned-copy.js';
import {identifyHost} from '../host/host-identity.js';
import {readSnapshot} from '../source/read-snapshot.js';
import {readBuildRecord} from '../source/verify-build.js';
import type {ExecutableSnapshot, SourceSnapshot} from './pair-record.js';

/** Puts a file's bytes into the pair folder (linked where it can be, see pinnedCopy) and records the digest of the copy. */
export async function copyInput(pairDir: string, source: string, copyName: string): Promise<{source: string; copy: string; digest: string}> {
	const from = resolve(source);
	const to = join(pairDir, copyName);
	await mkdir(join(to, '..'), {recursive: true});
	const {digest} = await pinnedCopy(from, to);
	return {source: from, copy: copyName, digest};
}

/**
 * Snapshots an executable: the file itself, and for a launcher-based build its build.json, together with the
 * identity measured now (every file of the build re-digested) and what differs from the record.
 */
export async function snapshotExecutable(pairDir: string, exe: string, folder: string): Promise<ExecutableSnapshot> {
	const identity = await identifyHost(exe);
	const copied = await copyInput(pairDir, exe, join('inputs', folder, basename(identity.launched)));
	if (identity.kind === 'file') return {...copied, kind: 'file', identity_digest: identity.digest, build: null};
	const buildDir = join(identity.path, '..');
	const record = await readBuildRecord(buildDir);
	const recordCopy = await copyInput(pairDir, join(buildDir, 'build.json'), join('inputs', folder, 'build.json'));
	return {
		...copied,
		kind: 'build',
		identity_digest: identity.digest,
		build: {record: recordCopy.copy, recorded_digest: record.digest, source_digest: record.source.source_digest, commit: record.source.commit, dirty: record.source.dirty, problems: identity.problems},
	};
}

/** Snapshots a source archive: the copy, its manifest, whether its members match it, and whether the build names it. */
export async function snapshotSourceArchive(pairDir: string, archive: string, copyName: string, executable: ExecutableSnapshot): Promise<SourceSnapshot> {
	const copied = await copyInput(pairDir, archive, copyName);
	try {
		const check = await readSnapshot(join(pairDir, copyName));
		return {
			...copied,
			commit: check.manifest.commit,
			dirty: check.manifest.dirty,
			source_digest: check.manifest.source_digest,
			problems: check.problems,
			matches_build: executable.build === null ? null : executable.build.source_digest === check.manifest.source_digest,
		};
	} catch (error) {
		return {...copied, commit: null, dirty: null, source_digest: null, problems: [(error as Error).message], matches_build: null};
	}
}
