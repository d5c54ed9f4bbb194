import type {ToolDefinition} from '../sdk/plugin.js';
import type {Harness, HarnessTool} from './harness-schema.js';

/** The enabled tools, in the order the harness defines them. */
export function enabledTools(harness: Harness): HarnessTool[] {
	const enabled = new Set(harness.enabled_tools);
	return harness.tools.filter(tool => enabled.has(tool.name));
}

/** The tool definitions a request offers the model: exactly the enabled tools, in the chat-completions shape. */
export function offeredTools(harness: Harness): ToolDefinition[] {
	return enabledTools(harness).map(tool => ({
		type: 'function',
		function: {name: tool.name, description: tool.description, parameters: tool.parameters},
	}));
}
