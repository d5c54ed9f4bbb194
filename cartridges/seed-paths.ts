/*
 * The keys of a case's `task.files`: each names one file to seed, relative to the fresh workspace. A key is refused
 * at load with its reason, so that a case which could not be seeded never passes `describe` and dies mid-evaluation.
 */

/** Linux's limit on one name in a path (NAME_MAX, in bytes). */
const maxSegmentBytes = 255;

/** One line per refused key, naming the key and why; empty when every key names a file inside the workspace. */
export function seedPathProblems(keys: readonly string[]): string[] {
	const own = keys.flatMap(key => {
		const reason = seedPathReason(key);
		return reason === null ? [] : [`${JSON.stringify(key)}: ${reason}`];
	});
	return [...own, ...folderClashes(keys.filter(key => seedPathReason(key) === null))];
}

function seedPathReason(key: string): string | null {
	if (key === '') return 'an empty path';
	if (key.includes('\0')) return 'a NUL byte in the path';
	if (key.startsWith('/')) return 'an absolute path (a seed path is relative to the workspace)';
	if (key.endsWith('/')) return 'a trailing slash (a seed path names a file, not a folder)';
	const segments = key.split('/');
	if (segments.includes('..')) return 'a ".." segment (it would leave the workspace)';
	if (segments.some(segment => segment === '' || segment === '.')) return 'an empty or "." segment (write each path once, plainly)';
	if (segments.some(segment => Buffer.byteLength(segment) > maxSegmentBytes)) return `a segment longer than ${maxSegmentBytes} bytes`;
	return null;
}

/** A key that is also a folder of another key: the two cannot both be seeded. */
function folderClashes(keys: readonly string[]): string[] {
	const all = new Set(keys);
	return keys.flatMap(key => {
		const segments = key.split('/');
		const folder = segments.slice(0, -1).map((_, index) => segments.slice(0, index + 1).join('/')).find(prefix => all.has(prefix));
		return folder === undefined ? [] : [`${JSON.stringify(folder)}: is a file, and also the folder of ${JSON.stringify(key)}`];
	});
}
