import {opendir, open} from 'node:fs/promises';
import {join} from 'node:path';

/** What the walk found: an attempt's evidence directory, a decision file, or a folder it could not read. */
export type Found =
	| {kind: 'attempt'; path: string}
	| {kind: 'decision'; path: string}
	| {kind: 'unreadable'; path: string; problem: string};

/** An attempt's evidence: its frozen plan copy and at least one file only an attempt writes (supervisor/attempt/report/, supervisor/evidence/). */
const attemptFiles = ['attempt.json', 'ledger.jsonl', 'report.json', 'lock.json'];
/** Folders that never hold evidence of ours and can be huge. */
const skipped = new Set(['node_modules', '.git']);
/** Decision files are pretty-printed with `schema` first (files/write-json.ts): their opening bytes say what they are. */
const decisionMark = /^\{\s*"schema":\s*"harness-lab\/decisions?@1"/;
const peekBytes = 128;

/**
 * Every attempt and decision under `dir`, yielded as found, folder by folder in name order: nothing is held but the
 * folder being listed, so a folder with thousands of attempts streams. An attempt's own folder is not descended into.
 */
export async function* findEvidence(dir: string): AsyncGenerator<Found> {
	let names: {files: string[]; folders: string[]};
	try {
		names = await listFolder(dir);
	} catch (error) {
		yield {kind: 'unreadable', path: dir, problem: `folder not readable (${(error as NodeJS.ErrnoException).code ?? String(error)})`};
		return;
	}
	if (isAttempt(names.files)) {
		yield {kind: 'attempt', path: dir};
		return;
	}
	for (const name of names.files) {
		if (name.endsWith('.json') && await isDecision(join(dir, name))) yield {kind: 'decision', path: join(dir, name)};
	}
	for (const name of names.folders) yield* findEvidence(join(dir, name));
}

async function listFolder(dir: string): Promise<{files: string[]; folders: string[]}> {
	const files: string[] = [];
	const folders: string[] = [];
	// Links are never followed: a link to a folder above would walk for ever.
	for await (const entry of await opendir(dir)) {
		if (entry.isFile()) files.push(entry.name);
		else if (entry.isDirectory() && !skipped.has(entry.name)) folders.push(entry.name);
	}
	return {files: files.sort(), folders: folders.sort()};
}

/** Whether `dir` itself (a real folder, not a link) is an attempt's evidence directory, by the files in it alone. */
export async function isAttemptDir(dir: string): Promise<boolean> {
	try {
		return isAttempt((await listFolder(dir)).files);
	} catch {
		return false;
	}
}

function isAttempt(files: string[]): boolean {
	return files.includes('plan.json') && attemptFiles.some(name => files.includes(name));
}

async function isDecision(path: string): Promise<boolean> {
	try {
		const handle = await open(path, 'r');
		try {
			const {buffer, bytesRead} = await handle.read(Buffer.alloc(peekBytes), 0, peekBytes, 0);
			return decisionMark.test(buffer.subarray(0, bytesRead).toString('utf8'));
		} finally {
			await handle.close();
		}
	} catch {
		// A file that cannot be opened is not one we wrote.
		return false;
	}
}
