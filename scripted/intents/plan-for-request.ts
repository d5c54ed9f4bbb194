import type {ChatRequest} from '../chat-request.js';
import {agentToolPlan} from './map-intent.js';
import {offeredToolList, type OfferedTool} from './offered-tool.js';
import type {ToolPlan} from './tool-plan.js';

/** harness-lab's own tools: name and argument names, as the built-in agent offers them. */
const nativeTools: Record<string, string[]> = {read_file: ['path'], write_file: ['path', 'content'], list_files: ['path'], run_command: ['command'], done: ['summary']};

/** One of ours by name, with our argument names, or with none declared (nothing that says it is another agent's tool of that name). */
function isNative(tool: OfferedTool): boolean {
	const keys = nativeTools[tool.name];
	return keys !== undefined && (Object.keys(tool.properties).length === 0 || keys.every(key => key in tool.properties));
}

/**
 * The built-in tools as they are (every step its own tool, the results read as they come) when the request offers
 * any of them; otherwise each step's intent mapped onto the agent's tools.
 */
export function toolPlanFor(chat: ChatRequest): ToolPlan {
	const tools = offeredToolList(chat);
	return tools.some(isNative) ? nativePlan(new Set(tools.map(tool => tool.name))) : agentToolPlan(chat, tools);
}

function nativePlan(offered: Set<string>): ToolPlan {
	return {
		call: request => (offered.has(request.tool) ? {name: request.tool, args: request.args, observe: result => result, exact: true} : null),
		finish: summary => (offered.has('done') ? {kind: 'call', name: 'done', args: {summary}} : null),
	};
}
