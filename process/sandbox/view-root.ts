import {readdirSync, readlinkSync} from 'node:fs';
import path from 'node:path';

/** A folder shown at another path inside the sandbox. */
export interface Mount {
	source: string;
	target: string;
	writable: boolean;
}

/** Made fresh by bubblewrap itself, never bound from the machine. */
const ownFolders = new Set(['dev', 'proc', 'tmp']);

/**
 * The machine's root, entry by entry, over bubblewrap's own empty root, so that a mount target the machine lacks
 * (`/app`, `/logs/verifier`) can be made there; `/` is made read-only last (mountArgs).
 */
export function viewRootArgs(): string[] {
	return readdirSync('/', {withFileTypes: true})
		.filter(entry => !ownFolders.has(entry.name))
		.flatMap(entry => {
			const at = `/${entry.name}`;
			if (entry.isSymbolicLink()) return ['--symlink', readlinkSync(at), at];
			return ['--ro-bind', at, at];
		});
}

/** The mounts themselves, then the rebuilt root read-only (a remount does not reach the mounts below it). */
export function mountArgs(mounts: readonly Mount[]): string[] {
	if (mounts.length === 0) return [];
	return [...mounts.flatMap(mount => [mount.writable ? '--bind' : '--ro-bind', path.resolve(mount.source), mount.target]), '--remount-ro', '/'];
}

/** The working folder as the command sees it: inside a mount's source, at the mount's target. */
export function viewPath(mounts: readonly Mount[], cwd: string): string {
	for (const mount of mounts) {
		const rel = path.relative(path.resolve(mount.source), path.resolve(cwd));
		if (rel === '') return mount.target;
		if (!rel.startsWith('..') && !path.isAbsolute(rel)) return path.join(mount.target, rel);
	}
	return cwd;
}
