import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import {dirname, isAbsolute, resolve} from 'node:path';
import {Shell, type BashRun} from './run-bash.js';

/*
 * Each agent's tools implemented for real in a workspace, their results formatted the way that agent formats them
 * for the model (read from the installed packages): line-numbered reads in <content> (opencode), a labelled
 * Command/Output/Exit Code block (Qwen Code), "Command exited with code N" (pi), a Chunk ID/Output header or a JSON
 * wrapper (Codex). Paths must be absolute where the agent requires it.
 */

export type AgentName = 'opencode' | 'qwen-code' | 'pi' | 'codex' | 'codex-shell';
type Args = Record<string, unknown>;
type Tool = (args: Args) => Promise<string>;

export class AgentTools {
	readonly shell: Shell;
	private readonly tools: Record<string, Tool>;

	constructor(agent: AgentName, private readonly workspace: string) {
		this.shell = new Shell(workspace);
		this.tools = toolsOf(agent, this);
	}

	/** A tool call's result text, as the agent sends it back. */
	async call(name: string, args: Args): Promise<string> {
		const tool = this.tools[name];
		if (tool === undefined) throw new Error(`the agent has no tool ${name}`);
		try {
			return await tool(args);
		} catch (error) {
			return `Error: ${(error as Error).message}`;
		}
	}

	/** A path argument resolved in the workspace; relative ones refused where the agent wants absolute paths. */
	path(value: unknown, absolute: boolean): string {
		if (typeof value !== 'string') throw new Error('path is required');
		if (absolute && !isAbsolute(value)) throw new Error(`File path must be absolute: ${value}`);
		const full = resolve(this.workspace, value);
		if (!full.startsWith(this.workspace)) throw new Error(`File path must be within the workspace: ${value}`);
		return full;
	}
}

async function writeOut(path: string, content: unknown): Promise<number> {
	if (typeof content !== 'string') throw new Error('content is required');
	await mkdir(dirname(path), {recursive: true});
	await writeFile(path, content);
	return Buffer.byteLength(content);
}

async function listing(path: string): Promise<string[]> {
	return (await readdir(path, {withFileTypes: true})).map(entry => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
}

function toolsOf(agent: AgentName, tools: AgentTools): Record<string, Tool> {
	const shell = (line: unknown): Promise<BashRun> => tools.shell.run(String(line));
	switch (agent) {
		case 'opencode': return {
			read: async args => {
				const path = tools.path(args.filePath, true);
				const lines = (await readFile(path, 'utf8')).split('\n');
				if (lines.at(-1) === '') lines.pop();
				return [`<path>${path}</path>`, '<type>file</type>', '<content>', ...lines.map((line, index) => `${index + 1}: ${line}`), '', `(End of file - total ${lines.length} lines)`, '</content>'].join('\n');
			},
			write: async args => {
				await writeOut(tools.path(args.filePath, true), args.content);
				return 'Wrote file successfully.';
			},
			bash: async args => {
				// Required by some versions, optional in 1.18.33; a string when given.
				if (args.description !== undefined && typeof args.description !== 'string') throw new Error('description must be a string');
				return (await shell(args.command)).output || '(no output)';
			},
		};
		case 'qwen-code': return {
			read_file: async args => readFile(tools.path(args.file_path, true), 'utf8'),
			write_file: async args => {
				const path = tools.path(args.file_path, true);
				await writeOut(path, args.content);
				return `Successfully created and wrote to new file: ${path}.`;
			},
			list_directory: async args => {
				const path = tools.path(args.path, true);
				return `Directory listing for ${path}:\n${(await listing(path)).map(name => (name.endsWith('/') ? `[DIR] ${name.slice(0, -1)}` : name)).join('\n')}`;
			},
			run_shell_command: async args => {
				// Optional in 0.24.4 (false when left out), a boolean when given.
				if (args.is_background !== undefined && typeof args.is_background !== 'boolean') throw new Error('is_background must be a boolean');
				// Its own background job, as 0.24.4 reports it to the model.
				if (args.is_background === true) return `Background shell started.\nid: bg_1\npid: ${tools.shell.start(String(args.command))}\noutput file: /tmp/shell-bg_1.output`;
				const run = await shell(args.command);
				return [`Command: ${String(args.command)}`, 'Directory: (root)', `Output: ${run.output || '(empty)'}`, 'Error: (none)', `Exit Code: ${run.exitCode ?? '(none)'}`, 'Signal: (none)', 'Process Group PGID: (none)'].join('\n');
			},
		};
		case 'pi': return {
			read: async args => readFile(tools.path(args.path, false), 'utf8'),
			write: async args => `Successfully wrote ${await writeOut(tools.path(args.path, false), args.content)} bytes to ${String(args.path)}`,
			ls: async args => (await listing(tools.path(args.path ?? '.', false))).join('\n'),
			bash: async args => {
				const run = await shell(args.command);
				const text = run.output;
				return run.exitCode === 0 ? text : `${text ? `${text}\n\n` : ''}Command exited with code ${run.exitCode}`;
			},
		};
		case 'codex': return {
			exec_command: async args => {
				const run = await shell(args.cmd);
				return `Chunk ID: 4f1e2a\nWall time: 0.1000 seconds\nProcess exited with code ${run.exitCode}\nOriginal token count: ${Math.ceil(run.output.length / 4)}\nOutput:\n${run.output}`;
			},
		};
		case 'codex-shell': return {
			shell: async args => {
				if (!Array.isArray(args.command)) throw new Error('command must be an argv array');
				const run = await tools.shell.run('', args.command.map(String));
				return JSON.stringify({output: run.output, metadata: {exit_code: run.exitCode, duration_seconds: 0.1}});
			},
		};
	}
}
