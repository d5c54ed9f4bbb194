import {mkdir, mkdtemp, open, rm, symlink, copyFile, writeFile, chmod, readlink} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import * as tar from 'tar';
import {readCheckoutState} from './checkout-state.js';
import type {LeftOut} from './evidence-folders.js';
import {SourceError} from './git.js';
import {SnapshotManifest, snapshotSchema, untrackedMember} from './snapshot-manifest.js';
import {writeJson} from '../../files/write-json.js';

/**
 * Writes a source archive of the checkout holding `dir`: `snapshot.json` (commit, digests), `head.diff`
 * (the complete patch against the commit) and `untracked/` (every untracked, not-ignored file).
 * The output is created exclusively: an existing file is refused. Evidence folders are never source (`onLeftOut` hears of them).
 */
export async function snapshotSource(options: {dir: string; out: string; onLeftOut?: (leftOut: LeftOut[]) => void}): Promise<SnapshotManifest> {
	const out = resolve(options.out);
	const root = resolve(options.dir);
	const state = await readCheckoutState(root);
	options.onLeftOut?.(state.left_out);
	let claim;
	try {
		await mkdir(dirname(out), {recursive: true});
		claim = await open(out, 'wx');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new SourceError('output_exists', `${out} already exists; a snapshot is never overwritten`);
		throw error;
	}
	await claim.close();
	const manifest = SnapshotManifest.parse({
		schema: snapshotSchema,
		created_at: new Date().toISOString(),
		root: state.root,
		commit: state.commit,
		dirty: state.dirty,
		diff: {path: 'head.diff', size: state.diff.length, digest: state.diff_digest},
		untracked: state.untracked,
		source_digest: state.source_digest,
	});
	// The archive is staged in a private folder of ours so that tar sees exactly the recorded members.
	const staging = await mkdtemp(join(tmpdir(), 'hlab-snapshot-'));
	try {
		await writeJson(join(staging, 'snapshot.json'), manifest);
		await writeFile(join(staging, 'head.diff'), state.diff);
		for (const file of state.untracked) {
			const target = join(staging, untrackedMember(file.path));
			await mkdir(dirname(target), {recursive: true});
			if (file.kind === 'symlink') await symlink(await readlink(join(root, file.path)), target);
			else {
				await copyFile(join(root, file.path), target);
				await chmod(target, file.mode ?? 0o644);
			}
		}
		const members = ['snapshot.json', 'head.diff', ...state.untracked.map(file => untrackedMember(file.path))];
		await tar.create({file: out, cwd: staging, portable: true, noDirRecurse: true}, members);
	} catch (error) {
		// The claimed file holds a partial archive: say so rather than leave something that looks complete.
		await writeFile(out, '').catch(() => undefined);
		throw error;
	} finally {
		await rm(staging, {recursive: true, force: true});
	}
	return manifest;
}
