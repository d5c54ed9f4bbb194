import {join} from 'node:path';
import type {AgentLaunch, AgentTask} from '../../adapter-contract.js';
import {settingsJson, settingsPath} from './config.js';
import type {QwenSpec} from './spec.js';
import {storeTree} from '../store-tree.js';

/**
 * `qwen` headless: stream-json events on stdout, every tool approved (yolo), its own budgets set from the task's.
 * The package's `cli.js` is run directly, not its `cli-entry.js` wrapper: the wrapper relaunches itself as a child
 * and would run a self-update's build from `~/.qwen/updates` instead of the pinned package. The task reaches it on
 * stdin (a positional prompt after `--` is not read), so no text of it is parsed as a flag. Its WebAssembly stays on V8's
 * baseline compiler (`--liftoff-only`): recompiling its shell parser (tree-sitter-bash, 1.4 MB of wasm) optimized cost
 * ~3 CPU-s a task, about 40% of the task's CPU (bench/README.md, "an agent's start").
 */
export function launch(spec: QwenSpec, task: AgentTask): AgentLaunch {
	const argv = [process.execPath, '--expose-gc', '--liftoff-only', join(storeTree(task, 'qwen-code'), spec.package.name, 'cli.js'), '--output-format', 'stream-json', '--approval-mode', 'yolo', '--auth-type', 'openai', `--model=${task.model}`];
	argv.push('--max-session-turns', String(spec.config.budget?.max_turns ?? task.maxSteps));
	argv.push('--max-wall-time', `${Math.max(1, Math.floor(task.deadlineMs / 1000))}s`);
	if (task.systemPrompt !== null) argv.push(`--system-prompt=${task.systemPrompt}`);
	argv.push(...spec.flags);
	return {argv, env: environment(task), files: [{path: settingsPath, content: settingsJson(spec, task)}], stdin: {kind: 'text', text: task.task.prompt}};
}

/** The provider by the environment Qwen Code reads for OpenAI auth; no relaunch, no usage statistics or telemetry. */
function environment(task: AgentTask): Record<string, string> {
	return {
		HOME: task.home,
		OPENAI_BASE_URL: task.baseUrl,
		OPENAI_API_KEY: task.apiKey,
		OPENAI_MODEL: task.model,
		QWEN_CODE_NO_RELAUNCH: 'true',
		QWEN_USAGE_STATISTICS_ENABLED: 'false',
		QWEN_TELEMETRY_ENABLED: 'false',
		// Its notice that yolo runs unsandboxed: the supervisor contains the run itself.
		QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
		NO_COLOR: '1',
		TERM: 'dumb',
	};
}
