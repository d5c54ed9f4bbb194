import {z} from 'zod';
import {EngineError} from '../engine-error.js';
import {listFilesTool, readFileTool, writeFileTool} from './file-tools.js';
import {runCommandTool, type CommandContext} from './run-command.js';
import {ToolError} from './tool-error.js';
import type {GroupRun} from '../../process/index.js';

const ReadArgs = z.object({path: z.string()}).strict();
const WriteArgs = z.object({path: z.string(), content: z.string()}).strict();
const ListArgs = z.object({path: z.string().optional()}).strict();
const CommandArgs = z.object({command: z.string(), timeout_seconds: z.number().optional(), background: z.boolean().optional()}).strict();
const DoneArgs = z.object({summary: z.string().optional()}).strict();

export interface ToolOutcome {
	content: string;
	is_error: boolean;
	run: GroupRun | null;
}

/** The arguments of a tool call, parsed; a malformed call is the model's mistake, reported back to it. */
function parseArguments<T>(schema: z.ZodType<T>, name: string, text: string): T {
	let value: unknown;
	try {
		value = text.trim() === '' ? {} : JSON.parse(text);
	} catch {
		throw new ToolError(`the arguments of ${name} are not valid JSON`);
	}
	const parsed = schema.safeParse(value);
	if (!parsed.success) throw new ToolError(`invalid arguments for ${name}: ${parsed.error.issues.map(issue => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ')}`);
	return parsed.data;
}

/** The summary of a `done` call, or a ToolError for malformed arguments. */
export function parseDone(text: string): string {
	return parseArguments(DoneArgs, 'done', text).summary ?? '';
}

/**
 * Runs one tool call. Request mistakes come back as an error observation (`is_error`);
 * a broken machine, the deadline or a cancellation throws an EngineError that ends the loop.
 */
export async function executeTool(context: CommandContext, name: string, argumentsText: string): Promise<ToolOutcome> {
	try {
		switch (name) {
			case 'read_file': {
				const args = parseArguments(ReadArgs, name, argumentsText);
				return {content: await readFileTool(context.root, args.path), is_error: false, run: null};
			}
			case 'write_file': {
				const args = parseArguments(WriteArgs, name, argumentsText);
				return {content: await writeFileTool(context.root, args.path, args.content), is_error: false, run: null};
			}
			case 'list_files': {
				const args = parseArguments(ListArgs, name, argumentsText);
				return {content: await listFilesTool(context.root, args.path ?? '.'), is_error: false, run: null};
			}
			case 'run_command': {
				const args = parseArguments(CommandArgs, name, argumentsText);
				return await runCommandTool(context, args.command, args.timeout_seconds, args.background ?? false);
			}
			default:
				throw new ToolError(`there is no tool named ${name}; the tools are read_file, write_file, list_files, run_command and done`);
		}
	} catch (error) {
		if (error instanceof ToolError) return {content: `error: ${error.message}`, is_error: true, run: null};
		if (error instanceof EngineError) throw error;
		throw new EngineError('tool', `${name} failed: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
	}
}
