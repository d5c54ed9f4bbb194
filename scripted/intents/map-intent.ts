import {join} from 'node:path/posix';
import type {ChatRequest} from '../chat-request.js';
import type {ToolRequest} from '../../tasks/reference/reference-script.js';
import {intentOf, type Intent} from './intent.js';
import type {OfferedTool} from './offered-tool.js';
import {commandObservation, fileText, shellFileText, startObservation} from './read-back.js';
import {shellQuote} from '../../process/shell-quote.js';
import {shellLine} from './shell-lines.js';
import type {Finish, MappedCall, ToolPlan} from './tool-plan.js';
import {finishTool, listTool, readTool, shellTool, writeTool, type RoleTool} from './tool-roles.js';
import {workspaceRoot} from './workspace-root.js';

/*
 * Each intent onto the agent's own tools: a dedicated tool when one fits by name and schema (read, write, list), else
 * the shell (run and start always go there). Paths are relative to the workspace, except where the tool's schema asks
 * for absolute ones (its argument's name or description says "absolute"): then the root the request names is joined in
 * front, and without one the shell does it. Required arguments the intent does not fill get their schema default, or
 * a value of their type (a description for a description, false, the empty string).
 */
export function agentToolPlan(chat: ChatRequest, tools: readonly OfferedTool[]): ToolPlan {
	const root = workspaceRoot(chat);
	const shell = shellTool(tools);
	const call = (intent: Intent, step: number): MappedCall | null => {
		const viaShell = (observe: (result: string) => string): MappedCall | null =>
			(shell ? {name: shell.tool.name, args: shellArgs(shell, shellLine(intent, step), describe(intent)), observe, exact: false} : null);
		switch (intent.kind) {
			case 'read': return dedicated(readTool(tools), intent, root, fileText) ?? viaShell(shellFileText);
			case 'write': return dedicated(writeTool(tools), intent, root, result => result) ?? viaShell(result => result);
			case 'list': return dedicated(listTool(tools), intent, root, result => result) ?? viaShell(result => result);
			case 'run': return viaShell(commandObservation);
			case 'start': return backgrounded(shell, intent, step) ?? viaShell(startObservation);
		}
	};
	const finishing = finishTool(tools);
	return {
		call: (request: ToolRequest, step: number) => {
			const intent = intentOf(request);
			return intent === null ? null : call(intent, step);
		},
		finish: (summary: string): Finish => (finishing ? {kind: 'call', name: finishing.tool.name, args: filled(finishing.tool, {[finishing.key]: summary}, 'Finish')} : {kind: 'text'}),
	};
}

/**
 * A start through a shell tool that runs commands in the background itself (Qwen Code's `is_background`): the agent
 * keeps and ends the job, rather than a detached one it would not know of (Qwen Code's shell ends those).
 */
function backgrounded(shell: RoleTool | null, intent: Intent & {kind: 'start'}, step: number): MappedCall | null {
	const flag = shell === null ? undefined : Object.keys(shell.tool.properties).find(key => /background/i.test(key) && shell.tool.properties[key]!.type === 'boolean');
	if (shell === null || flag === undefined) return null;
	const line = `echo "hlab-started: $$"; exec sh -c ${shellQuote(intent.command)}`;
	return {name: shell.tool.name, args: {...shellArgs(shell, line, describe(intent)), [flag]: true}, observe: startObservation, exact: false};
}

/** A read, write or list through its own tool, or null when there is none or its absolute path cannot be made. */
function dedicated(role: RoleTool | null, intent: Intent & {path: string}, root: string | null, observe: (result: string) => string): MappedCall | null {
	if (role === null) return null;
	const path = pathFor(role.tool, role.key, intent.path, root);
	if (path === null) return null;
	const given: Record<string, unknown> = {[role.key]: path};
	if (intent.kind === 'write' && role.contentKey) given[role.contentKey] = intent.content;
	return {name: role.tool.name, args: filled(role.tool, given, describe(intent)), observe, exact: false};
}

function pathFor(tool: OfferedTool, key: string, path: string, root: string | null): string | null {
	const description = tool.properties[key]!.description;
	// "Relative or absolute" (pi) allows both; "absolute ... Relative paths are not supported" (Qwen Code) does not.
	const absolute = /absolute/i.test(key) || (/absolute/i.test(description) && !/relative or absolute|absolute or relative/i.test(description));
	if (!absolute) return path;
	return root === null ? null : join(root, path);
}

/** The shell's arguments: the line as a string, or as `bash -c LINE` where the schema wants an argv array. */
function shellArgs(shell: RoleTool, line: string, description: string): Record<string, unknown> {
	const command = shell.tool.properties[shell.key]!.type === 'array' ? ['bash', '-c', line] : line;
	return filled(shell.tool, {[shell.key]: command}, description);
}

function describe(intent: Intent): string {
	switch (intent.kind) {
		case 'list': return `Lists ${intent.path}`;
		case 'read': return `Reads ${intent.path}`;
		case 'write': return `Writes ${intent.path}`;
		case 'run': return `Runs ${intent.command}`;
		case 'start': return `Starts ${intent.command} in the background`;
	}
}

/** The given arguments, and a value for every other required one. */
function filled(tool: OfferedTool, given: Record<string, unknown>, description: string): Record<string, unknown> {
	const args = {...given};
	for (const key of tool.required) {
		if (key in args) continue;
		const property = tool.properties[key];
		if (property === undefined) continue;
		args[key] = property.default !== undefined ? property.default : valueOfType(key, property.type, description);
	}
	return args;
}

function valueOfType(key: string, type: string | null, description: string): unknown {
	if (type === 'boolean') return false;
	if (type === 'number' || type === 'integer') return /timeout/i.test(key) ? (/ms$|_ms|Ms$/.test(key) ? 120_000 : 120) : 0;
	if (type === 'array') return [];
	if (type === 'object') return {};
	return /desc|title|reason|summary/i.test(key) ? description : '';
}
