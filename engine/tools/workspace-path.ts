import {lstatSync, realpathSync} from 'node:fs';
import {dirname, isAbsolute, relative, resolve} from 'node:path';
import {ToolError} from './tool-error.js';
// The one file of the process layer file tools need: the sandbox's WORKDIR, without loading process supervision.
import {publishedWorkdir} from '../../process/sandbox/attempt-sandbox.js';

function inside(root: string, path: string): boolean {
	const rel = relative(root, path);
	return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Resolves a path the model gave against the workspace and refuses one that leaves it,
 * whether by `..`, an absolute path, or a symbolic link (also a dangling one) pointing outside.
 * `root` must already be the workspace's real path.
 */
export function resolveInWorkspace(root: string, requested: string): string {
	if (typeof requested !== 'string' || requested.length === 0) throw new ToolError('a path is required');
	if (requested.includes('\0')) throw new ToolError('a path cannot contain NUL bytes');
	const absolute = resolve(root, fromWorkdir(requested));
	if (!inside(root, absolute)) throw new ToolError(`${requested}: outside the workspace; paths are relative to the workspace root`);
	// The deepest part that exists decides where the path really leads.
	let existing = absolute;
	for (;;) {
		try {
			lstatSync(existing);
			break;
		} catch {
			existing = dirname(existing);
		}
	}
	let real: string;
	try {
		real = realpathSync(existing);
	} catch {
		throw new ToolError(`${requested}: goes through a dangling symbolic link`);
	}
	if (!inside(root, real)) throw new ToolError(`${requested}: a symbolic link leads outside the workspace`);
	return absolute;
}

/** A path under the WORKDIR the attempt's commands see the workspace at (`/app/x`), as the workspace's own (`x`). */
function fromWorkdir(requested: string): string {
	const workdir = publishedWorkdir();
	if (workdir === null || !isAbsolute(requested)) return requested;
	const rel = relative(workdir, resolve(requested));
	return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? requested : rel;
}

/** The workspace path as the model sees it (relative, with `.` for the root). */
export function displayPath(root: string, absolute: string): string {
	return relative(root, absolute) || '.';
}
