import {builtinAgent} from '../../harness/builtin-agent.js';
import {offeredTools} from '../../harness/offered-tools.js';
import type {ToolDefinition} from '../../sdk/plugin.js';

/** The built-in agent's enabled tool names; `done` ends the loop. */
export const toolNames: readonly string[] = builtinAgent.enabled_tools;

let definitions: ToolDefinition[] | undefined;

/** The tools the built-in agent offers the model on every request (generated from their argument schemas at the first ask). */
export function toolDefinitions(): ToolDefinition[] {
	definitions ??= offeredTools(builtinAgent);
	return definitions;
}
