import {lstat, readFile, readlink} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import {digestBytes, digestJson} from '../../files/digest.js';
import {leaveOutEvidence, type LeftOut} from './evidence-folders.js';
import {git, SourceError} from './git.js';

/** One untracked, not-ignored file of a checkout. */
export const UntrackedFile = z.object({
	path: z.string(),
	kind: z.enum(['file', 'symlink']),
	/** File mode bits (e.g. 0o755 for executables); null for symlinks. */
	mode: z.number().int().nullable(),
	size: z.number().int().nonnegative(),
	/** Of the file's bytes, or of the link target text for a symlink. */
	digest: z.string(),
});
export type UntrackedFile = z.infer<typeof UntrackedFile>;

/** What a build is made from: the commit, the complete patch against it, and the untracked sources. */
export interface CheckoutState {
	root: string;
	commit: string;
	diff: Buffer;
	diff_digest: string;
	untracked: UntrackedFile[];
	dirty: boolean;
	/** One digest over commit, patch and untracked files; a snapshot and a build of the same state share it. */
	source_digest: string;
	/** Untracked folders that are not source: evidence hlab wrote, repositories of their own. */
	left_out: LeftOut[];
}

/** The source identity of a state: the digest both `snapshot.json` and `build.json` record. */
export function sourceDigest(commit: string, diffDigest: string, untracked: UntrackedFile[]): string {
	return digestJson({commit, diff: diffDigest, untracked: untracked.map(file => [file.path, file.kind, file.mode, file.digest])});
}

/** Reads the exact state of the checkout at `root`, as git sees it (ignored files are not source). */
export async function readCheckoutState(root: string): Promise<CheckoutState> {
	let commit: string;
	try {
		commit = (await git(root, ['rev-parse', '--verify', 'HEAD^{commit}'])).toString().trim();
	} catch (error) {
		throw new SourceError('not_a_checkout', `${root} has no commit to snapshot against: ${(error as Error).message}`);
	}
	const diff = await git(root, ['diff', 'HEAD', '--binary', '--no-color', '--no-ext-diff']);
	const listed = (await git(root, ['ls-files', '--others', '--exclude-standard', '-z'])).toString('utf8').split('\0').filter(name => name !== '').sort();
	const {source: names, leftOut} = leaveOutEvidence(listed);
	const untracked: UntrackedFile[] = [];
	for (const name of names) untracked.push(await describeFile(root, name));
	const diffDigest = digestBytes(diff);
	return {root, commit, diff, diff_digest: diffDigest, untracked, dirty: diff.length > 0 || untracked.length > 0, source_digest: sourceDigest(commit, diffDigest, untracked), left_out: leftOut};
}

async function describeFile(root: string, name: string): Promise<UntrackedFile> {
	const path = join(root, name);
	const stat = await lstat(path);
	if (stat.isSymbolicLink()) {
		const target = await readlink(path);
		return {path: name, kind: 'symlink', mode: null, size: Buffer.byteLength(target), digest: digestBytes(target)};
	}
	const bytes = await readFile(path);
	return {path: name, kind: 'file', mode: stat.mode & 0o777, size: bytes.length, digest: digestBytes(bytes)};
}
