import type {AgentLaunch, AgentTask} from '../../adapter-contract.js';
import {configPath, modelRef, npmrc, npmrcPath, opencodeJson, systemPromptPath} from './config.js';
import {platformBinary} from './platform-binary.js';
import type {OpencodeSpec} from './spec.js';
import {storeTree} from '../store-tree.js';

/**
 * `opencode run --format json`, every permission granted (`--auto`), the task on stdin: a positional message is
 * quoted by opencode when it has spaces, stdin reaches the model as it is.
 */
export function launch(spec: OpencodeSpec, task: AgentTask): AgentLaunch {
	const argv = [platformBinary(storeTree(task, 'opencode')), 'run', '--format', 'json', '--auto', '--pure', '--model', modelRef(task), ...spec.flags];
	const files = [{path: configPath, content: opencodeJson(spec, task)}, {path: npmrcPath, content: npmrc()}];
	if (task.systemPrompt !== null) files.push({path: systemPromptPath, content: task.systemPrompt});
	return {argv, env: environment(task), files, stdin: {kind: 'text', text: task.task.prompt}};
}

/** Every switch opencode has for reaching out (updates, models.dev, sharing, LSP downloads, plugins, Claude Code files, skills) off. */
function environment(task: AgentTask): Record<string, string> {
	return {
		HOME: task.home,
		OPENCODE_DISABLE_AUTOUPDATE: '1',
		OPENCODE_DISABLE_MODELS_FETCH: '1',
		OPENCODE_DISABLE_SHARE: '1',
		OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
		OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
		OPENCODE_DISABLE_CLAUDE_CODE: '1',
		OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
		// An opencode.json in the workspace or any folder above it would override the pinned provider and model.
		OPENCODE_DISABLE_PROJECT_CONFIG: '1',
		OPENCODE_PURE: '1',
		NO_COLOR: '1',
		TERM: 'dumb',
	};
}
