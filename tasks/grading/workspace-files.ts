import {readFile} from 'node:fs/promises';
import {join, relative, resolve} from 'node:path';
import {sha256} from '../../files/sha256.js';

/** A workspace file's text, or null when it is missing or not readable; the path must stay inside the workspace. */
export async function readWorkspaceText(workspace: string, path: string): Promise<string | null> {
	const absolute = resolve(workspace, path);
	if (relative(workspace, absolute).startsWith('..')) throw new Error(`grader path ${path} leaves the workspace`);
	try {
		return await readFile(absolute, 'utf8');
	} catch {
		return null;
	}
}

/** Workspace JSON, or a description of why it is not JSON. */
export async function readWorkspaceJson(workspace: string, path: string): Promise<{ok: true; value: unknown} | {ok: false; problem: string}> {
	const text = await readWorkspaceText(workspace, path);
	if (text === null) return {ok: false, problem: `${path} is missing`};
	try {
		return {ok: true, value: JSON.parse(text)};
	} catch (error) {
		return {ok: false, problem: `${path} is not valid JSON: ${(error as Error).message}`};
	}
}

/** The workspace files whose bytes differ from the originals (missing ones included), by relative path. */
export async function changedFiles(workspace: string, originalsDir: string, paths: string[]): Promise<string[]> {
	const changed: string[] = [];
	for (const path of paths) {
		const original = sha256(await readFile(join(originalsDir, path)));
		let now: string | null;
		try {
			now = sha256(await readFile(join(workspace, path)));
		} catch {
			now = null;
		}
		if (now !== original) changed.push(path);
	}
	return changed;
}
