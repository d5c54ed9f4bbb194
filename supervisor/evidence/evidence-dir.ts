import {mkdir} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {InputError} from '../input-error.js';

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

/** Creates a new evidence directory; an existing one (even empty) is refused so no attempt mixes with another. */
export async function createEvidenceDir(path: string): Promise<string> {
	const dir = resolve(path);
	if (!await createNewDir(dir)) throw new EvidenceDirError(`evidence directory ${dir} already exists; each attempt needs a new one`);
	return dir;
}

/** `tasks/NNN-<id>`: frozen index first, as wide as the denominator needs, so a listing shows the frozen order. */
export function taskDirName(index: number, id: string, total: number): string {
	return join('tasks', `${String(index + 1).padStart(Math.max(3, String(total).length), '0')}-${id}`);
}
