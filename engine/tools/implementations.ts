import type {z} from 'zod';
import type {GroupRun} from '../../process/index.js';
import {DoneArgs, ListFilesArgs, ReadFileArgs, RunCommandArgs, WriteFileArgs} from '../../harness/builtin-tools.js';
import type {ToolParameters} from '../../harness/tool-parameters.js';
import {listFilesTool, readFileTool, writeFileTool} from './file-tools.js';
import {runCommandTool, type CommandContext} from './run-command.js';

export interface ToolOutcome {
	content: string;
	is_error: boolean;
	run: GroupRun | null;
}

type Run<Args> = (context: CommandContext, args: Args) => Promise<ToolOutcome>;

/** What a harness's tool can be bound to: code that acts in the workspace, or the end of the loop. */
export type ToolImplementation =
	// `parameters`: the JSON Schema `args` was made from, when the implementation came with one (a cartridge tool's).
	| {kind: 'action'; args: z.ZodType; run: Run<never>; parameters?: ToolParameters}
	| {kind: 'finish'; args: typeof DoneArgs};

/** An action whose arguments `args` validates before `run` sees them. */
export function action<Schema extends z.ZodType>(args: Schema, run: Run<z.infer<Schema>>): ToolImplementation {
	return {kind: 'action', args, run: run as Run<never>};
}

const observation = (content: string): ToolOutcome => ({content, is_error: false, run: null});

/** The implementations this engine has, by the stable id a harness binds a tool to. */
export const toolImplementations: ReadonlyMap<string, ToolImplementation> = new Map<string, ToolImplementation>([
	['builtin:read_file', action(ReadFileArgs, async (context, args) => observation(await readFileTool(context.root, args.path)))],
	['builtin:write_file', action(WriteFileArgs, async (context, args) => observation(await writeFileTool(context.root, args.path, args.content)))],
	['builtin:list_files', action(ListFilesArgs, async (context, args) => observation(await listFilesTool(context.root, args.path ?? '.')))],
	['builtin:run_command', action(RunCommandArgs, (context, args) => runCommandTool(context, args.command, args.timeout_seconds, args.background ?? false))],
	['builtin:done', {kind: 'finish', args: DoneArgs}],
]);
