import {resolve} from 'node:path';
import {ControllerIdentity} from '../../controller-protocol/index.js';
import {fileDigest} from '../../files/file-digest.js';

/**
 * Pins a controller: the digest of every listed file and of every absolute path in the command.
 * Relative file paths are resolved against the current directory; a file that cannot be read throws.
 */
export async function pinIdentity(command: string[], files: string[]): Promise<ControllerIdentity> {
	const paths = new Set([...command.filter(argument => argument.startsWith('/')), ...files].map(file => resolve(file)));
	const entries = await Promise.all([...paths].sort().map(async file => [file, await fileDigest(file)] as const));
	return ControllerIdentity.parse({command, files: Object.fromEntries(entries)});
}
