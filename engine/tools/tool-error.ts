/** A tool failure caused by the request (bad path, missing file): it is reported to the model, the loop goes on. */
export class ToolError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ToolError';
	}
}

/** Node errors that describe the request rather than a broken machine. */
const requestErrors = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES', 'EPERM', 'EEXIST', 'ENOTEMPTY', 'ENAMETOOLONG', 'ELOOP', 'EINVAL']);

/** Turns an fs error caused by the request into a ToolError; anything else is rethrown. */
export function asToolError(error: unknown, path: string): ToolError {
	const code = (error as NodeJS.ErrnoException | null)?.code;
	if (code !== undefined && requestErrors.has(code)) return new ToolError(`${path}: ${describeCode(code)} (${code})`);
	throw error;
}

function describeCode(code: string): string {
	switch (code) {
		case 'ENOENT': return 'no such file or directory';
		case 'EISDIR': return 'is a directory';
		case 'ENOTDIR': return 'not a directory';
		case 'EACCES':
		case 'EPERM': return 'permission denied';
		case 'EEXIST': return 'already exists';
		case 'ELOOP': return 'too many symbolic links';
		default: return 'cannot be used';
	}
}
