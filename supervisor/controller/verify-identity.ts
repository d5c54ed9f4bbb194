import type {ControllerIdentity} from '../../controller-protocol/index.js';
import {fileDigest} from '../../files/file-digest.js';

/** A pinned file that is not what the identity says. */
export interface PinMismatch {
	file: string;
	reason: 'missing_file' | 'digest_mismatch';
	expected: string;
	/** The digest found, or null when the file could not be read. */
	actual: string | null;
	message: string;
}

/** Re-hashes every pinned file; an empty list means the controller is exactly what was pinned. */
export async function verifyIdentityFiles(identity: ControllerIdentity): Promise<PinMismatch[]> {
	const checks = Object.entries(identity.files).map(async ([file, expected]): Promise<PinMismatch | null> => {
		let actual: string;
		try {
			actual = await fileDigest(file);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			const why = code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist'
				: code === 'ENOTREG' ? 'is not a regular file'
					: `cannot be read (${code ?? (error as Error).message})`;
			return {file, reason: 'missing_file', expected, actual: null, message: `pinned controller file ${file} ${why}`};
		}
		if (actual === expected) return null;
		return {file, reason: 'digest_mismatch', expected, actual, message: `pinned controller file ${file} has digest ${actual}, expected ${expected}`};
	});
	return (await Promise.all(checks)).filter(mismatch => mismatch !== null);
}
