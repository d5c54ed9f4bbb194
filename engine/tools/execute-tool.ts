import type {z} from 'zod';
import {builtinAgent} from '../../harness/builtin-agent.js';
import {EngineError} from '../engine-error.js';
import type {ToolOutcome} from './implementations.js';
import type {CommandContext} from './run-command.js';
import {ToolError} from './tool-error.js';
import {bindTools, type Toolset} from './toolset.js';
import {describeIssues} from '../../controller-protocol/describe-issues.js';

export type {ToolOutcome} from './implementations.js';

let builtinBound: Toolset | undefined;

/** The built-in agent's tools, bound at the first ask: what a caller that names no toolset gets. */
function builtinToolset(): Toolset {
	builtinBound ??= bindTools(builtinAgent);
	return builtinBound;
}

/** The arguments of a tool call, parsed; a malformed call is the model's mistake, reported back to it. */
export function parseArguments<T>(schema: z.ZodType<T>, name: string, text: string): T {
	let value: unknown;
	try {
		value = text.trim() === '' ? {} : JSON.parse(text);
	} catch {
		throw new ToolError(`the arguments of ${name} are not valid JSON`);
	}
	const parsed = schema.safeParse(value);
	if (!parsed.success) throw new ToolError(`invalid arguments for ${name}: ${describeIssues(parsed.error, {root: 'arguments'})}`);
	return parsed.data;
}

/**
 * Runs one tool call with the implementation the toolset binds its name to. Request mistakes (a tool that is not
 * enabled, bad arguments, a bad path) come back as an error observation (`is_error`); a broken machine, the deadline
 * or a cancellation throws an EngineError that ends the loop.
 */
export async function executeTool(context: CommandContext, name: string, argumentsText: string, tools: Toolset = builtinToolset()): Promise<ToolOutcome> {
	try {
		const bound = tools.find(name);
		if (bound === undefined) throw new ToolError(`there is no tool named ${name}; ${tools.describeNames()}`);
		const {implementation} = bound;
		// The loop ends on a finishing tool before it gets here.
		if (implementation.kind === 'finish') throw new ToolError(`${name} ends the task and is not run as a command`);
		return await implementation.run(context, parseArguments(implementation.args, name, argumentsText) as never);
	} catch (error) {
		if (error instanceof ToolError) return {content: `error: ${error.message}`, is_error: true, run: null};
		if (error instanceof EngineError) throw error;
		throw new EngineError('tool', `${name} failed: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
	}
}
