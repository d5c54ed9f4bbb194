import {mkdir, open, readdir, stat, writeFile} from 'node:fs/promises';
import {dirname, join, relative} from 'node:path';
import {asToolError, ToolError} from './tool-error.js';
import {displayPath, resolveInWorkspace} from './workspace-path.js';

/** Files are read up to this many bytes; the model is told when a file was cut. */
export const readLimitBytes = 256 * 1024;
/** A listing shows at most this many entries. */
export const listLimitEntries = 1000;
const skippedDirectories = new Set(['.git', 'node_modules']);

export async function readFileTool(root: string, path: string): Promise<string> {
	const absolute = resolveInWorkspace(root, path);
	try {
		const info = await stat(absolute);
		if (info.isDirectory()) throw new ToolError(`${path}: is a directory; use list_files`);
		const handle = await open(absolute, 'r');
		try {
			const buffer = Buffer.alloc(Math.min(info.size, readLimitBytes));
			const {bytesRead} = await handle.read(buffer, 0, buffer.length, 0);
			const text = buffer.subarray(0, bytesRead).toString('utf8');
			return info.size > readLimitBytes ? `${text}\n[file cut at ${readLimitBytes} of ${info.size} bytes]` : text;
		} finally {
			await handle.close();
		}
	} catch (error) {
		if (error instanceof ToolError) throw error;
		throw asToolError(error, path);
	}
}

export async function writeFileTool(root: string, path: string, content: string): Promise<string> {
	const absolute = resolveInWorkspace(root, path);
	try {
		await mkdir(dirname(absolute), {recursive: true});
		// The parent may have been created just now; check again that nothing leads outside.
		resolveInWorkspace(root, path);
		await writeFile(absolute, content);
	} catch (error) {
		if (error instanceof ToolError) throw error;
		throw asToolError(error, path);
	}
	return `wrote ${Buffer.byteLength(content)} bytes to ${displayPath(root, absolute)}`;
}

export async function listFilesTool(root: string, path: string): Promise<string> {
	const absolute = resolveInWorkspace(root, path);
	const lines: string[] = [];
	const skipped: string[] = [];
	let cut = false;
	const walk = async (dir: string): Promise<void> => {
		let entries;
		try {
			entries = await readdir(dir, {withFileTypes: true});
		} catch (error) {
			throw asToolError(error, displayPath(root, dir));
		}
		entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		for (const entry of entries) {
			if (lines.length >= listLimitEntries) {
				cut = true;
				return;
			}
			const full = join(dir, entry.name);
			const shown = relative(absolute, full);
			if (entry.isDirectory()) {
				if (skippedDirectories.has(entry.name)) {
					skipped.push(`${shown}/`);
					continue;
				}
				lines.push(`${shown}/`);
				await walk(full);
			} else {
				lines.push(entry.isSymbolicLink() ? `${shown}@` : shown);
			}
		}
	};
	try {
		if (!(await stat(absolute)).isDirectory()) throw new ToolError(`${path}: not a directory`);
	} catch (error) {
		if (error instanceof ToolError) throw error;
		throw asToolError(error, path);
	}
	await walk(absolute);
	if (lines.length === 0) lines.push('(empty)');
	if (skipped.length > 0) lines.push(`(not listed: ${skipped.join(', ')})`);
	if (cut) lines.push(`(listing cut at ${listLimitEntries} entries)`);
	return lines.join('\n');
}
