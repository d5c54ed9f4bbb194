import {mkdir, readFile, stat} from 'node:fs/promises';
import {dirname, isAbsolute, join, normalize} from 'node:path';
import {walkTree} from '../../files/walk-tree.js';
import {writeBytes, writeJson} from '../../files/write-json.js';
import type {TaskResult} from '../attempt/report/report-schema.js';
import type {EvidenceFile} from './task-message.js';

/** result.json travels as the result itself and is written last, durable, by the coordinator. */
const resultFile = 'result.json';

/** A task folder's files for the coordinator, or how large they are when over the bound (nothing is ever cut short). */
export async function collectEvidence(taskDir: string, limitBytes: number): Promise<{files: EvidenceFile[]} | {tooLarge: number}> {
	// A symbolic link is never followed out of the task folder; only regular files travel.
	const found = (await walkTree(taskDir)).filter(file => file.name !== resultFile && !file.link);
	let total = 0;
	for (const file of found) total += (await stat(file.path)).size;
	if (total > limitBytes) return {tooLarge: total};
	const files: EvidenceFile[] = [];
	for (const file of found) files.push({path: file.name, base64: (await readFile(file.path)).toString('base64')});
	return {files};
}

/** Writes a queue node's files into the coordinator's task folder, then its result.json, durable; a path leaving the folder is refused. */
export async function writeEvidence(taskDir: string, files: EvidenceFile[], result: TaskResult): Promise<void> {
	await mkdir(taskDir, {recursive: true});
	for (const file of files) {
		const relative = normalize(file.path);
		if (isAbsolute(relative) || relative.startsWith('..') || relative === resultFile) throw new Error(`a queue node sent an evidence path outside its task folder: ${file.path}`);
		const path = join(taskDir, relative);
		await mkdir(dirname(path), {recursive: true});
		await writeBytes(path, Buffer.from(file.base64, 'base64'));
	}
	await writeJson(join(taskDir, resultFile), result, {durable: true});
}
