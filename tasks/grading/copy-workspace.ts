import {mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {readWorkspaceFile} from './workspace-files.js';

/** A workspace larger than this is not copied for a test run: the built-in tasks' are a handful of small files. */
const limits = {entries: 10_000, bytes: 64 * 1024 * 1024};

export type WorkspaceCopy = {ok: true; leftOut: string[]} | {ok: false; reason: string};

/**
 * Copies the workspace for the grader's test run without following a link: a symbolic link is copied as a link (never
 * as its target), a file read through the workspace reader (so a hard link, which may name a file outside, is left
 * out, and so is anything not a file or folder); the files are made read-only. Each left-out entry is named.
 */
export function copyWorkspace(workspace: string, destination: string): WorkspaceCopy {
	const state = {entries: 0, bytes: 0, leftOut: [] as string[]};
	const copyDir = (relative: string): string | null => {
		mkdirSync(join(destination, relative), {recursive: relative === ''});
		for (const entry of readdirSync(join(workspace, relative), {withFileTypes: true})) {
			const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
			if (++state.entries > limits.entries) return `the workspace has more than ${limits.entries} entries`;
			if (entry.isDirectory()) {
				const problem = copyDir(path);
				if (problem !== null) return problem;
			} else if (entry.isSymbolicLink()) {
				symlinkSync(readlinkSync(join(workspace, path)), join(destination, path));
			} else {
				const read = readWorkspaceFile(workspace, path);
				if (!read.ok) {
					state.leftOut.push(read.reason);
					continue;
				}
				if ((state.bytes += read.bytes.length) > limits.bytes) return `the workspace holds more than ${limits.bytes} bytes`;
				writeFileSync(join(destination, path), read.bytes, {mode: read.mode & 0o555});
			}
		}
		return null;
	};
	const problem = copyDir('');
	return problem === null ? {ok: true, leftOut: state.leftOut} : {ok: false, reason: `the workspace cannot be copied for the test run: ${problem}`};
}
