import type {ToolDefinition} from '../../sdk/plugin.js';

/** Names of the engine's tools; `done` ends the loop. */
export const toolNames = ['read_file', 'write_file', 'list_files', 'run_command', 'done'] as const;
export type ToolName = typeof toolNames[number];

/** The tools offered to the model on every request. */
export const toolDefinitions: ToolDefinition[] = [
	{
		type: 'function',
		function: {
			name: 'read_file',
			description: 'Read a UTF-8 text file of the workspace. Paths are relative to the workspace root.',
			parameters: {
				type: 'object',
				properties: {path: {type: 'string', description: 'File path relative to the workspace root'}},
				required: ['path'],
				additionalProperties: false,
			},
		},
	},
	{
		type: 'function',
		function: {
			name: 'write_file',
			description: 'Create or replace a file of the workspace with the given content; parent directories are created.',
			parameters: {
				type: 'object',
				properties: {
					path: {type: 'string', description: 'File path relative to the workspace root'},
					content: {type: 'string', description: 'The complete new content of the file'},
				},
				required: ['path', 'content'],
				additionalProperties: false,
			},
		},
	},
	{
		type: 'function',
		function: {
			name: 'list_files',
			description: 'List the files under a directory of the workspace, recursively (directories end with /).',
			parameters: {
				type: 'object',
				properties: {path: {type: 'string', description: 'Directory relative to the workspace root; default "."'}},
				additionalProperties: false,
			},
		},
	},
	{
		type: 'function',
		function: {
			name: 'run_command',
			description: 'Run a shell command (bash) in the workspace root and return its exit code, stdout and stderr. '
				+ 'Each command runs in its own process group and is ended at its deadline. With background=true it is started '
				+ 'and left running (its output is discarded unless redirected to a file); background jobs are ended when the session ends.',
			parameters: {
				type: 'object',
				properties: {
					command: {type: 'string', description: 'The shell command line'},
					timeout_seconds: {type: 'number', description: 'Deadline for a foreground command (default 60, capped by the time the session has left)'},
					background: {type: 'boolean', description: 'Start the command and return at once'},
				},
				required: ['command'],
				additionalProperties: false,
			},
		},
	},
	{
		type: 'function',
		function: {
			name: 'done',
			description: 'Finish the task: call this once the work is complete, with a short summary of what was done.',
			parameters: {
				type: 'object',
				properties: {summary: {type: 'string', description: 'What was done'}},
				required: ['summary'],
				additionalProperties: false,
			},
		},
	},
];
