import {accessSync, constants} from 'node:fs';
import {delimiter, join} from 'node:path';

/** The executables of `tools` that are not found on PATH (as the agent's commands would look them up). */
export function missingTools(tools: readonly string[], path = process.env.PATH ?? ''): string[] {
	const dirs = path.split(delimiter).filter(dir => dir !== '');
	return tools.filter(tool => !dirs.some(dir => {
		try {
			accessSync(join(dir, tool), constants.X_OK);
			return true;
		} catch {
			return false;
		}
	}));
}
