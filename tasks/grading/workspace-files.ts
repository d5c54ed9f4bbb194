import {closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readdirSync, type Stats} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {join, relative, resolve, sep} from 'node:path';
import {sha256} from '../../files/sha256.js';

/**
 * A workspace file as a grader may take it: its bytes, or the named reason it was refused. The workspace is the
 * agent's, so nothing in it is followed out of it: a symbolic link anywhere on the path is refused, and so is a
 * regular file with more than one link (a hard link may be the other name of a file outside, the grader's own data).
 */
export type WorkspaceRead = {ok: true; bytes: Buffer; mode: number} | {ok: false; reason: string};

/** The path inside the workspace, as its components; a grader asking for a path outside it is the grader's bug. */
function componentsOf(workspace: string, path: string): string[] {
	const inside = relative(workspace, resolve(workspace, path));
	if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`)) throw new Error(`grader path ${path} leaves the workspace`);
	return inside.split(sep);
}

/** Each component by lstat, never through a link; the last one's stats, or the reason the path is refused. */
function walkComponents(workspace: string, components: string[]): {ok: true; stats: Stats} | {ok: false; reason: string} {
	let stats: Stats | undefined;
	for (let depth = 1; depth <= components.length; depth++) {
		const shown = components.slice(0, depth).join('/');
		stats = lstatSync(join(workspace, ...components.slice(0, depth)), {throwIfNoEntry: false});
		if (stats === undefined) return {ok: false, reason: `missing: ${shown}`};
		if (stats.isSymbolicLink()) return {ok: false, reason: `symlink: ${shown}`};
		if (depth < components.length && !stats.isDirectory()) return {ok: false, reason: `not a folder: ${shown}`};
	}
	return {ok: true, stats: stats!};
}

/** Why a file's stats make it unreadable to a grader, or null. */
function refusal(stats: Stats, shown: string): string | null {
	if (!stats.isFile()) return `not a regular file: ${shown}`;
	if (stats.nlink > 1) return `hard link: ${shown} has ${stats.nlink} links`;
	return null;
}

/** Reads a workspace file without following any link out of it (see WorkspaceRead). */
export function readWorkspaceFile(workspace: string, path: string): WorkspaceRead {
	const components = componentsOf(workspace, path);
	const shown = components.join('/');
	const walked = walkComponents(workspace, components);
	if (!walked.ok) return walked;
	const refused = refusal(walked.stats, shown);
	if (refused !== null) return {ok: false, reason: refused};
	let fd: number;
	try {
		// O_NOFOLLOW and the same inode after opening: a link swapped in after the walk is refused too.
		fd = openSync(join(workspace, ...components), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return {ok: false, reason: code === 'ELOOP' ? `symlink: ${shown}` : code === 'ENOENT' ? `missing: ${shown}` : `unreadable: ${shown} (${code ?? 'error'})`};
	}
	try {
		const opened = fstatSync(fd);
		if (opened.ino !== walked.stats.ino || opened.dev !== walked.stats.dev) return {ok: false, reason: `replaced while read: ${shown}`};
		const late = refusal(opened, shown);
		if (late !== null) return {ok: false, reason: late};
		return {ok: true, bytes: readFileSync(fd), mode: opened.mode};
	} finally {
		closeSync(fd);
	}
}

/** A workspace file's text, or the named reason there is none (missing, a link, not a regular file). */
export async function readWorkspaceText(workspace: string, path: string): Promise<{ok: true; text: string} | {ok: false; problem: string}> {
	const read = readWorkspaceFile(workspace, path);
	return read.ok ? {ok: true, text: read.bytes.toString('utf8')} : {ok: false, problem: problemOf(read.reason, path)};
}

/** A missing file reads as before (`x is missing`); every other refusal keeps its named reason. */
function problemOf(reason: string, path: string): string {
	return reason.startsWith('missing: ') ? `${path} is missing` : reason;
}

/** Workspace JSON, or a description of why it is not JSON. */
export async function readWorkspaceJson(workspace: string, path: string): Promise<{ok: true; value: unknown} | {ok: false; problem: string}> {
	const read = await readWorkspaceText(workspace, path);
	if (!read.ok) return read;
	try {
		return {ok: true, value: JSON.parse(read.text)};
	} catch (error) {
		return {ok: false, problem: `${path} is not valid JSON: ${(error as Error).message}`};
	}
}

/**
 * The workspace files that are not the originals, each as a description: `x differs from the original`, `x is
 * missing`, or the reason it was refused (`symlink: x`, `hard link: x ...`): a link to the original is no original.
 */
export async function changedFiles(workspace: string, originalsDir: string, paths: string[]): Promise<string[]> {
	const changed: string[] = [];
	for (const path of paths) {
		const original = sha256(readFileSync(join(originalsDir, path)));
		const now = readWorkspaceFile(workspace, path);
		if (!now.ok) changed.push(problemOf(now.reason, path));
		else if (sha256(now.bytes) !== original) changed.push(`${path} differs from the original`);
	}
	return changed;
}

/**
 * Every entry below the workspace (folders, files, links), relative with `/`, sorted; a link is listed, never followed.
 * Not `readdir`'s `recursive`: it descends into linked folders, so one `ln -s / x` had a grader list the machine.
 */
export async function workspaceEntries(workspace: string): Promise<string[]> {
	const found: string[] = [];
	// A small tree is listed synchronously (a thread-pool trip per folder cost more than the listing); past
	// `smallTreeEntries` it is listed again, folder by folder through the pool, so a huge one never blocks the thread.
	const small = (folder: string, prefix: string): boolean => readdirSync(folder, {withFileTypes: true}).every(entry => {
		found.push(`${prefix}${entry.name}`);
		return found.length <= smallTreeEntries && (!entry.isDirectory() || small(join(folder, entry.name), `${prefix}${entry.name}/`));
	});
	if (small(workspace, '')) return found.sort();
	found.length = 0;
	const visit = async (folder: string, prefix: string): Promise<void> => {
		for (const entry of await readdir(folder, {withFileTypes: true})) {
			found.push(`${prefix}${entry.name}`);
			if (entry.isDirectory()) await visit(join(folder, entry.name), `${prefix}${entry.name}/`);
		}
	};
	await visit(workspace, '');
	return found.sort();
}

const smallTreeEntries = 64;
