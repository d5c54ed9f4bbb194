import {accessSync, constants, statSync} from 'node:fs';
import path from 'node:path';

/**
 * Why `file` cannot be started, the way execvp would see it, or null when it can (or PATH is unknown).
 * A command behind a shim would otherwise fail as the shim's exit 127, not as a spawn failure.
 */
export function whyNotExecutable(file: string, cwd: string, searchPath: string | undefined): string | null {
	if (file.includes('/')) return problemWith(path.resolve(cwd, file));
	if (searchPath === undefined) return null;
	let problem = 'ENOENT';
	for (const dir of searchPath.split(':')) {
		const found = problemWith(path.resolve(cwd, dir, file));
		if (found === null) return null;
		if (found === 'EACCES') problem = found;
	}
	return problem;
}

function problemWith(candidate: string): 'ENOENT' | 'EACCES' | null {
	try {
		if (!statSync(candidate).isFile()) return 'EACCES';
		accessSync(candidate, constants.X_OK);
		return null;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EACCES' ? 'EACCES' : 'ENOENT';
	}
}
