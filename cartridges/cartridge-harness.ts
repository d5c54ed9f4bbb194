import {z} from 'zod';
import {DoneArgs, harnessSchemaVersion, parseHarness, toolParameters, type Harness} from '../harness/index.js';
import type {ContractConfig, Manifest} from './cartridge-files.js';
import type {LoadedTool} from './loaded-cartridge.js';

const defaultContinue = 'Continue with the task using the tools; call the done tool with a summary once it is complete.';
const doneDescription = 'Finish the task: call this once the work is complete, with a short summary of what was done.';

/**
 * A tool.yaml's parameters as the JSON Schema the model is shown and calls are validated by: a schema of
 * `type: object` as written, or the short form (a map of property schemas) made into one with every property required.
 */
export function expandParameters(parameters: Record<string, unknown>): Record<string, unknown> {
	if (parameters.type === 'object') return parameters;
	return {type: 'object', properties: parameters, required: Object.keys(parameters), additionalProperties: false};
}

/** The zod validator of a JSON Schema, or why it cannot validate. */
export function validatorOf(schema: Record<string, unknown>): {ok: true; validator: z.ZodType} | {ok: false; problem: string} {
	try {
		return {ok: true, validator: z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0])};
	} catch (error) {
		return {ok: false, problem: (error as Error).message.split('\n')[0] ?? 'not a JSON Schema'};
	}
}

/** The Harness a cartridge defines: its prompt, its tools and the engine's done tool, its contract's limits. */
export function cartridgeHarness(manifest: Manifest, config: ContractConfig, prompt: string, tools: LoadedTool[]): {ok: true; harness: Harness} | {ok: false; problem: string} {
	const defined = [
		...tools.map(tool => ({name: tool.name, description: tool.description, parameters: tool.parameters, implementation: tool.implementation})),
		{name: config.done_tool, description: doneDescription, parameters: toolParameters(DoneArgs), implementation: 'builtin:done'},
	];
	const parsed = parseHarness({
		schema: harnessSchemaVersion,
		name: manifest.name,
		instructions: {system: prompt, continue: config.continue_prompt ?? defaultContinue},
		// The agent sees the case's goal only.
		task_template: {text: '{{prompt}}', variables: ['prompt']},
		tools: defined,
		enabled_tools: config.tools ?? defined.map(tool => tool.name),
		context: {history: 'full'},
		limits: {max_steps: config.max_steps, deadline_ms: config.deadline_ms},
	});
	return parsed.ok ? {ok: true, harness: parsed.harness} : {ok: false, problem: `the harness is not valid: ${parsed.problem}`};
}
