import type {OfferedTool} from './offered-tool.js';

/*
 * Which offered tool does what, by name and by schema: a name says what a tool is for, and its schema must have the
 * arguments the intent fills. The first offered tool that fits wins, so a request's order decides between equals.
 */

const pathKeys = ['path', 'file_path', 'filePath', 'absolute_path', 'file', 'filename', 'target_file'];
const directoryKeys = ['path', 'dir_path', 'directory', 'dir', 'absolute_path'];
const contentKeys = ['content', 'contents', 'file_text', 'text', 'data'];
const commandKeys = ['command', 'cmd', 'script'];
const answerKeys = ['summary', 'result', 'answer', 'message', 'text', 'final_answer'];

/** A tool chosen for a role, with the argument keys the intent fills. */
export interface RoleTool {
	tool: OfferedTool;
	key: string;
	contentKey?: string;
}

function keyOf(tool: OfferedTool, keys: readonly string[]): string | null {
	return keys.find(key => key in tool.properties) ?? null;
}

function find(tools: readonly OfferedTool[], name: RegExp, keys: readonly string[], extra?: (tool: OfferedTool) => boolean): RoleTool | null {
	for (const tool of tools) {
		const key = keyOf(tool, keys);
		if (name.test(tool.name) && key !== null && (extra?.(tool) ?? true)) return {tool, key};
	}
	return null;
}

/** A tool that reads one file (not one that edits or writes it). */
export function readTool(tools: readonly OfferedTool[]): RoleTool | null {
	return find(tools, /^(read|read_?file|view|view_file|cat|open_file)$/i, pathKeys, tool => keyOf(tool, contentKeys) === null);
}

/** A tool that writes a whole file. */
export function writeTool(tools: readonly OfferedTool[]): RoleTool | null {
	for (const tool of tools) {
		const key = keyOf(tool, pathKeys);
		const contentKey = keyOf(tool, contentKeys);
		if (/^(write|write_?file|create_?file|create)$/i.test(tool.name) && key !== null && contentKey !== null) return {tool, key, contentKey};
	}
	return null;
}

/** A tool that lists a directory. */
export function listTool(tools: readonly OfferedTool[]): RoleTool | null {
	return find(tools, /^(ls|list|list_?dir|list_?directory|list_?files)$/i, directoryKeys);
}

/** A tool that runs a shell command line (its command a string, or an argv array). */
export function shellTool(tools: readonly OfferedTool[]): RoleTool | null {
	return find(tools, /^(bash|shell|sh|exec|exec_command|run_shell_command|shell_command|run_command|execute_command|terminal|local_shell)$/i, commandKeys);
}

/** A tool that ends the run with an answer; without one, the answer is a text with no tool calls. */
export function finishTool(tools: readonly OfferedTool[]): RoleTool | null {
	return find(tools, /^(done|finish|complete|task_complete|attempt_completion|submit|final_answer)$/i, answerKeys);
}
