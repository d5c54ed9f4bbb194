import type {ToolDefinition} from '../sdk/plugin.js';
import type {Harness, HarnessTool} from './harness-schema.js';

/** The enabled tools, in the order the enabled set lists them (the order the model is offered them). */
export function enabledTools(harness: Harness): HarnessTool[] {
	return harness.enabled_tools.flatMap(name => harness.tools.filter(tool => tool.name === name));
}

/** The tool definitions a request offers the model: exactly the enabled tools, in the chat-completions shape. */
export function offeredTools(harness: Harness): ToolDefinition[] {
	return enabledTools(harness).map(tool => ({
		type: 'function',
		function: {name: tool.name, description: tool.description, parameters: tool.parameters},
	}));
}
