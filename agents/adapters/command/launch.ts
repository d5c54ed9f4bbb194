import {join} from 'node:path';
import type {AgentLaunch, AgentTask} from '../../adapter-contract.js';
import type {SpecOf} from '../spec-of.js';

/** Where a command agent finds the system prompt under its `$HOME`, when the spec has one. */
export const systemPromptFile = '.hlab/system-prompt.txt';

/**
 * Any executable that honours an OpenAI-compatible endpoint from the environment: a script beside the spec, or a
 * `bin` of its pinned package (npm's link in the store's node_modules/.bin). The task goes last on the command
 * line or on stdin; the deadline and step limit travel as variables the command may read.
 */
export function launchCommand(spec: SpecOf<'command'>, task: AgentTask): AgentLaunch {
	const executable = task.packageDir === null ? join(task.specDir, spec.executable) : join(task.packageDir, 'node_modules', '.bin', spec.executable);
	const byArgument = spec.task_input === 'argument';
	const prompt = task.systemPrompt === null ? [] : [{path: systemPromptFile, content: task.systemPrompt}];
	return {
		argv: [executable, ...spec.flags, ...(byArgument ? [task.task.prompt] : [])],
		env: {
			OPENAI_BASE_URL: task.baseUrl,
			OPENAI_API_KEY: task.apiKey,
			OPENAI_MODEL: task.model,
			HLAB_TASK_ID: task.task.id,
			HLAB_TASK_DEADLINE_MS: String(task.deadlineMs),
			HLAB_TASK_MAX_STEPS: String(task.maxSteps),
			...(prompt.length === 0 ? {} : {HLAB_SYSTEM_PROMPT_FILE: join(task.home, systemPromptFile)}),
		},
		files: prompt,
		stdin: byArgument ? {kind: 'null'} : {kind: 'text', text: task.task.prompt},
	};
}
