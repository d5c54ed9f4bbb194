import {closeSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync} from 'node:fs';
import {link, open, rename, unlink, type FileHandle} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';

/**
 * How a file must survive:
 * - `exclusive`: never overwrite; an existing file is an error (`EEXIST`);
 * - `atomic`: a reader or a crash sees the old bytes or the new ones, never a torn file;
 * - `durable`: on disk before the call returns (file and directory entry fsynced).
 * A file a later step trusts (plan, report, decision, ledgers, host records) is written `durable`; a task's result.json
 * is a copy of its ledger record, which is the durable one.
 */
export interface WriteOptions {
	exclusive?: boolean;
	atomic?: boolean;
	durable?: boolean;
}

/** The one way a JSON file is written: two-space indent and a final newline. */
export function jsonText(value: unknown): string {
	return `${JSON.stringify(value, null, 2)}\n`;
}

export async function writeJson(path: string, value: unknown, options: WriteOptions = {}): Promise<void> {
	await writeBytes(path, jsonText(value), options);
}

/**
 * Writes bytes under the options above; an exclusive write is also atomic, so a crash never leaves a half file that blocks a retry.
 * `data` may be pieces produced as they are written (a large page), so the whole never has to be held at once.
 */
export async function writeBytes(path: string, data: string | Uint8Array | AsyncIterable<string>, options: WriteOptions = {}): Promise<void> {
	const {exclusive = false, durable = false} = options;
	const atomic = options.atomic ?? (durable || exclusive);
	if (!atomic) return writeInPlace(path, data, durable);
	const temp = tempNameFor(path);
	const handle = await open(temp, 'wx');
	try {
		await writeAndClose(handle, data, durable);
		if (exclusive) await linkExclusive(temp, path);
		else await rename(temp, path);
	} catch (error) {
		// Also a write that failed part way (pieces whose maker threw): no half file is left behind.
		await unlink(temp).catch(() => undefined);
		throw error;
	}
	if (durable) await syncDir(dirname(path));
}

async function writeAndClose(handle: FileHandle, data: string | Uint8Array | AsyncIterable<string>, durable: boolean): Promise<void> {
	try {
		await handle.writeFile(data);
		if (durable) await handle.sync();
	} finally {
		await handle.close();
	}
}

/** A hidden sibling, so the rename stays within one file system. */
function tempNameFor(path: string): string {
	return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
}

async function writeInPlace(path: string, data: string | Uint8Array | AsyncIterable<string>, durable: boolean): Promise<void> {
	await writeAndClose(await open(path, 'w'), data, durable);
}

/** link(2) fails with EEXIST where rename(2) would replace: the exclusive commit of a finished temporary file. */
async function linkExclusive(temp: string, path: string): Promise<void> {
	await link(temp, path);
	await unlink(temp);
}

/** Makes a directory entry (a new file, a rename) durable. */
export async function syncDir(dir: string): Promise<void> {
	const handle = await open(dir, 'r');
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/** The synchronous twin, for the per-task evidence hot path where a trip through the thread pool costs more than the write. */
export function writeJsonSync(path: string, value: unknown, options: WriteOptions = {}): void {
	const {exclusive = false, durable = false} = options;
	const atomic = options.atomic ?? (durable || exclusive);
	const data = jsonText(value);
	if (!atomic) return writeSyncTo(path, data, durable, 'w');
	const temp = tempNameFor(path);
	writeSyncTo(temp, data, durable, 'wx');
	try {
		if (exclusive) linkSyncExclusive(temp, path);
		else renameSync(temp, path);
	} catch (error) {
		try {
			unlinkSync(temp);
		} catch {}
		throw error;
	}
	if (durable) {
		const fd = openSync(dirname(path), 'r');
		try {
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	}
}

function writeSyncTo(path: string, data: string, durable: boolean, flag: string): void {
	const fd = openSync(path, flag);
	try {
		writeSync(fd, data);
		if (durable) fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}

function linkSyncExclusive(temp: string, path: string): void {
	linkSync(temp, path);
	unlinkSync(temp);
}
