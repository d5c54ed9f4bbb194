import {z} from 'zod';

/*
 * The built-in tools' argument schemas: the one place they are written. The engine validates a call with them,
 * and the definitions the model is offered are generated from them (`toolParameters`), so the two cannot disagree.
 */

const workspacePath = 'File path relative to the workspace root';

export const ReadFileArgs = z.object({path: z.string().describe(workspacePath)}).strict();

export const WriteFileArgs = z.object({
	path: z.string().describe(workspacePath),
	content: z.string().describe('The complete new content of the file'),
}).strict();

export const ListFilesArgs = z.object({path: z.string().describe('Directory relative to the workspace root; default "."').optional()}).strict();

export const RunCommandArgs = z.object({
	command: z.string().describe('The shell command line'),
	timeout_seconds: z.number().describe('Deadline for a foreground command (default 60, capped by the time the session has left)').optional(),
	background: z.boolean().describe('Start the command and return at once').optional(),
}).strict();

// The summary is required, as the model has always been told; the scripted provider always sends one.
// (Validation used to accept a call without it; such a call is now an error observation the model can correct.)
export const DoneArgs = z.object({summary: z.string().describe('What was done')}).strict();

/** A built-in tool: its stable implementation id, the name and description the model sees, its argument schema. */
export interface BuiltinTool {
	implementation: `builtin:${string}`;
	name: string;
	description: string;
	args: z.ZodType;
}

export const builtinTools = [
	{
		implementation: 'builtin:read_file',
		name: 'read_file',
		description: 'Read a UTF-8 text file of the workspace. Paths are relative to the workspace root.',
		args: ReadFileArgs,
	},
	{
		implementation: 'builtin:write_file',
		name: 'write_file',
		description: 'Create or replace a file of the workspace with the given content; parent directories are created.',
		args: WriteFileArgs,
	},
	{
		implementation: 'builtin:list_files',
		name: 'list_files',
		description: 'List the files under a directory of the workspace, recursively (directories end with /).',
		args: ListFilesArgs,
	},
	{
		implementation: 'builtin:run_command',
		name: 'run_command',
		description: 'Run a shell command (bash) in the workspace root and return its exit code, stdout and stderr. '
			+ 'Each command runs in its own process group and is ended at its deadline. With background=true it is started '
			+ 'and left running (its output is discarded unless redirected to a file); background jobs are ended when the session ends.',
		args: RunCommandArgs,
	},
	{
		implementation: 'builtin:done',
		name: 'done',
		description: 'Finish the task: call this once the work is complete, with a short summary of what was done.',
		args: DoneArgs,
	},
] as const satisfies readonly BuiltinTool[];
