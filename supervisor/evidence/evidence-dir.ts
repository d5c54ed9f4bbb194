import {readdirSync, rmSync, statSync} from 'node:fs';
import {mkdir, rename, rm} from 'node:fs/promises';
import {basename, dirname, join, resolve} from 'node:path';
import {syncDir} from '../../files/write-json.js';
import {ownIdentity} from '../../process/process-identity.js';
import {InputError} from '../input-error.js';
import {holderRuns} from './attempt-lock.js';

export class EvidenceDirError extends InputError {
	readonly reason = 'evidence_exists';
}

/** Creates a directory that must be new (its parents as needed); false when it already exists, even empty. */
export async function createNewDir(dir: string): Promise<boolean> {
	await mkdir(dirname(dir), {recursive: true});
	try {
		await mkdir(dir);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}
}

/**
 * Creates a new evidence directory whole: `fill` writes what a recovery needs (the lock, the plan) into a hidden
 * sibling, which is then renamed into place, so a directory at `path` either is an attempt or never was one. An
 * existing directory (even empty) is refused so no attempt mixes with another; openings of the same name left by a
 * dead supervisor are removed first, so a crash before the rename never blocks a rerun.
 */
export async function openEvidenceDir<T>(path: string, fill: (staging: string) => Promise<T>): Promise<{dir: string; filled: T}> {
	const dir = resolve(path);
	await mkdir(dirname(dir), {recursive: true});
	removeDeadOpenings(dir);
	refuseExisting(dir);
	const staging = join(dirname(dir), `${openingPrefix(dir)}${process.pid}-${ownIdentity()?.startTime ?? 'x'}-${Math.random().toString(36).slice(2)}`);
	await mkdir(staging);
	try {
		const filled = await fill(staging);
		// rename(2) replaces an empty directory: looked for once more, only an empty one made in these microseconds could go.
		refuseExisting(dir);
		await rename(staging, dir);
		await syncDir(dirname(dir));
		return {dir, filled};
	} catch (error) {
		await rm(staging, {recursive: true, force: true});
		if (['ENOTEMPTY', 'EEXIST', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) refuseExisting(dir);
		throw error;
	}
}

function refuseExisting(dir: string): void {
	if (statSync(dir, {throwIfNoEntry: false}) !== undefined) throw new EvidenceDirError(`evidence directory ${dir} already exists; each attempt needs a new one`);
}

/** `.<name>.opening-<pid>-<start time>-<random>`: a sibling, so the rename stays in one file system; its holder is in its name from its first instant. */
function openingPrefix(dir: string): string {
	return `.${basename(dir)}.opening-`;
}

/** Removes the openings of `dir` whose supervisor is gone (killed before the rename); returns how many. */
export function removeDeadOpenings(dir: string): number {
	const prefix = openingPrefix(dir);
	let names: string[];
	try {
		names = readdirSync(dirname(dir)).filter(name => name.startsWith(prefix));
	} catch {
		return 0;
	}
	const dead = names.filter(name => !openingHolderRuns(name.slice(prefix.length)));
	for (const name of dead) rmSync(join(dirname(dir), name), {recursive: true, force: true});
	return dead.length;
}

function openingHolderRuns(suffix: string): boolean {
	const [pid, startTime] = suffix.split('-');
	if (!/^\d+$/.test(pid ?? '')) return false;
	return holderRuns({pid: Number(pid), start_time: /^\d+$/.test(startTime ?? '') ? Number(startTime) : null, boot_id: null});
}

/** `tasks/NNN-<id>`: frozen index first, as wide as the denominator needs, so a listing shows the frozen order. */
export function taskDirName(index: number, id: string, total: number): string {
	return join('tasks', `${String(index + 1).padStart(Math.max(3, String(total).length), '0')}-${id}`);
}
