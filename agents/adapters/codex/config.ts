import {join} from 'node:path';
import type {AgentTask} from '../../adapter-contract.js';

/** Codex's home under the task's `$HOME` (CODEX_HOME names it). */
export const codexHome = '.codex';
export const configPath = join(codexHome, 'config.toml');
/** The spec's system prompt: `model_instructions_file` replaces Codex's base instructions with it. */
export const systemPromptPath = 'hlab/system-prompt.md';
/** The variable Codex reads the provider's key from (`env_key`). */
export const keyVariable = 'HLAB_PROVIDER_KEY';

/**
 * Features that reach hosts of their own (api.github.com, chatgpt.com, measured with strace on 0.171.0): apps and
 * connectors, plugins and their sharing, model discovery, the cyber access programs, in-app updates, dependency installs.
 */
const offFeatures = ['apps', 'plugins', 'remote_plugin', 'plugin_sharing', 'api_key_model_discovery', 'api_key_cyber_access_programs', 'in_app_updates', 'skill_mcp_dependency_install', 'workspace_dependencies'];

/**
 * `config.toml`: one Responses-API provider (the proxy), the plan's model, no approvals and no sandbox of Codex's own
 * (the supervisor contains the run), no update check, analytics, feedback or web search.
 */
export function configToml(task: AgentTask): string {
	const lines = [
		`model = ${toml(task.model)}`,
		'model_provider = "hlab"',
		'approval_policy = "never"',
		'sandbox_mode = "danger-full-access"',
		'check_for_update_on_startup = false',
		'web_search = "disabled"',
		...(task.systemPrompt === null ? [] : [`model_instructions_file = ${toml(join(task.home, systemPromptPath))}`]),
		'',
		'[model_providers.hlab]',
		'name = "hlab"',
		`base_url = ${toml(task.baseUrl)}`,
		`env_key = ${toml(keyVariable)}`,
		'wire_api = "responses"',
		'',
		'[analytics]',
		'enabled = false',
		'',
		'[feedback]',
		'enabled = false',
		'',
		'[features]',
		...offFeatures.map(feature => `${feature} = false`),
	];
	return `${lines.join('\n')}\n`;
}

/** A TOML basic string: JSON's escapes are TOML's for every character a path or model name holds. */
function toml(value: string): string {
	return JSON.stringify(value);
}
