import type {Harness} from './harness-schema.js';
import {harnessSchemaVersion} from './harness-schema.js';
import {builtinTools} from './builtin-tools.js';
import {toolParameters} from './tool-parameters.js';

/** The engine's system prompt: the same for every task; the task comes as the user message. */
const systemPrompt = [
	'You are a careful software agent working inside a task workspace on a POSIX machine.',
	'Use the tools to inspect and change files and to run commands; all paths are relative to the workspace root, and you cannot leave it.',
	'Check your work by running it (for example the tests) before you finish. Do not edit tests unless the task asks for it.',
	'When the task is complete, call the done tool with a short summary. If you answer without a tool call, you will be asked to continue.',
].join('\n');

/** Sent when the model answered with text only, so the loop keeps to tool use. */
const continueNudge = 'Continue with the task using the tools; call done with a summary once it is complete.';

let tools: Harness['tools'] | undefined;

/** The built-in coding agent: the harness every run uses unless it is given another. */
export const builtinAgent: Harness = {
	schema: harnessSchemaVersion,
	name: 'builtin-coding-agent',
	instructions: {system: systemPrompt, continue: continueNudge},
	task_template: {text: '{{prompt}}', variables: ['prompt']},
	// Generated from the argument schemas when first read: a process or thread that never offers them (the supervisor's
	// main thread) skips the ~15 ms of JSON Schema it took at every start.
	get tools() {
		tools ??= builtinTools.map(tool => ({name: tool.name, description: tool.description, parameters: toolParameters(tool.args), implementation: tool.implementation}));
		return tools;
	},
	enabled_tools: builtinTools.map(tool => tool.name),
	context: {history: 'full'},
	// The defaults of `hlab agent`; a plan's budgets replace them in an experiment.
	limits: {max_steps: 30, deadline_ms: 120_000},
};
