import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import {basename, join} from 'node:path';
import {z} from 'zod';
import {FileDigest, type ControllerIdentity} from '../../controller-protocol/index.js';
import type {ControllerCallError} from './call-failure.js';
import {pinnedCopy} from '../../files/pinned-copy.js';

/** `DIR/controller/inputs/manifest.json`: which copy holds which pinned file. */
export const InputsManifest = z.object({
	schema: z.literal('harness-lab/controller-inputs@1'),
	command: z.array(z.string()),
	/** Original absolute path → the copy's name inside `inputs/` and the digest both have. */
	files: z.record(z.string(), z.object({copy: z.string(), digest: FileDigest})),
});
export type InputsManifest = z.infer<typeof InputsManifest>;

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Copies every pinned file into `inputs/` and checks each copy against its pin, so the evidence
 * holds exactly what ran. A directory that already has the same inputs is left as it is.
 */
export async function copyPinnedInputs(controllerDir: string, identity: ControllerIdentity): Promise<ControllerCallError | null> {
	const inputsDir = join(controllerDir, 'inputs');
	const manifestPath = join(inputsDir, 'manifest.json');
	const existing = await readExistingManifest(manifestPath);
	if (existing === 'unreadable') return {reason: 'evidence', message: `${manifestPath} exists but is not an inputs manifest`};
	if (existing !== null) return sameInputs(existing, identity) ? null : {reason: 'evidence', message: `${manifestPath} records other controller inputs than this identity`};
	await mkdir(inputsDir, {recursive: true});
	const manifest: InputsManifest = {schema: 'harness-lab/controller-inputs@1', command: identity.command, files: {}};
	let index = 0;
	for (const [file, digest] of Object.entries(identity.files)) {
		index += 1;
		const copy = `${String(index).padStart(3, '0')}-${basename(file)}`;
		let copied: string;
		try {
			// Linked, not copied, where it can be: a Node executable is large, and pinned by every controller.
			copied = (await pinnedCopy(file, join(inputsDir, copy))).digest;
		} catch {
			return {reason: 'missing_file', file, message: `pinned controller file ${file} could not be copied into the evidence`};
		}
		if (copied !== digest) return {reason: 'digest_mismatch', file, message: `pinned controller file ${file} changed while it was copied: ${copied}, expected ${digest}`};
		manifest.files[file] = {copy, digest};
	}
	await writeFile(join(controllerDir, 'identity.json'), json(identity));
	await writeFile(manifestPath, json(manifest));
	return null;
}

async function readExistingManifest(path: string): Promise<InputsManifest | null | 'unreadable'> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch {
		return null;
	}
	try {
		return InputsManifest.parse(JSON.parse(text));
	} catch {
		return 'unreadable';
	}
}

function sameInputs(manifest: InputsManifest, identity: ControllerIdentity): boolean {
	const pinned = Object.entries(identity.files);
	return JSON.stringify(manifest.command) === JSON.stringify(identity.command)
		&& pinned.length === Object.keys(manifest.files).length
		&& pinned.every(([file, digest]) => manifest.files[file]?.digest === digest);
}

/** The highest call number already recorded under `calls/`, so a second client continues the sequence. */
export async function lastCallNumber(controllerDir: string): Promise<number> {
	let names: string[];
	try {
		names = await readdir(join(controllerDir, 'calls'));
	} catch {
		return 0;
	}
	return Math.max(0, ...names.map(name => Number.parseInt(name, 10)).filter(Number.isFinite));
}

/** Creates `calls/NNN-<method>/`; refusing an existing one keeps two calls from sharing a record. */
export async function createCallDirectory(controllerDir: string, number: number, method: string): Promise<string> {
	const dir = join(controllerDir, 'calls', `${String(number).padStart(3, '0')}-${method}`);
	await mkdir(join(controllerDir, 'calls'), {recursive: true});
	await mkdir(dir);
	return dir;
}

export async function writeCallFile(dir: string | null, name: string, content: string | Uint8Array): Promise<void> {
	if (dir !== null) await writeFile(join(dir, name), content);
}

export {json as evidenceJson};
