import {join} from 'node:path';
import type {AgentTask} from '../../adapter-contract.js';
import type {OpencodeSpec} from './spec.js';

/** opencode's global configuration under the task's `$HOME` (project configuration is off: OPENCODE_DISABLE_PROJECT_CONFIG). */
export const configPath = '.config/opencode/opencode.json';
/** npm's user configuration: opencode installs its plugin package into its config folder from the registry npm names. */
export const npmrcPath = '.npmrc';
/** The spec's system prompt, which the build agent's prompt names with `{file:…}` (config text is substituted, a file's is not). */
export const systemPromptPath = 'hlab/system-prompt.md';
/** The one provider opencode knows: the task's metering proxy, as an OpenAI-compatible (chat completions) provider. */
export const providerName = 'hlab';

/** Every agent opencode has, the hidden ones included (title, summary, compaction): each is pinned to the plan's model. */
const agents = ['build', 'plan', 'general', 'explore', 'title', 'summary', 'compaction'];

export function modelRef(task: AgentTask): string {
	return `${providerName}/${task.model}`;
}

/** `opencode.json`: one provider with one model, every model alias and agent pinned to it, sharing, updates, LSP and formatters off, every tool allowed unless the spec says otherwise. */
export function opencodeJson(spec: OpencodeSpec, task: AgentTask): string {
	const model = modelRef(task);
	const steps = spec.config.budget?.max_turns ?? task.maxSteps;
	const prompt = task.systemPrompt === null ? {} : {prompt: `{file:${join(task.home, systemPromptPath)}}`};
	const config = {
		$schema: 'https://opencode.ai/config.json',
		provider: {[providerName]: {npm: '@ai-sdk/openai-compatible', name: providerName, options: {baseURL: task.baseUrl, apiKey: task.apiKey}, models: {[task.model]: {name: task.model, tool_call: true}}}},
		enabled_providers: [providerName],
		model,
		small_model: model,
		agent: Object.fromEntries(agents.map(name => [name, {model, ...(name === 'build' ? {steps, ...prompt} : {})}])),
		autoupdate: false,
		share: 'disabled',
		snapshot: false,
		lsp: false,
		formatter: false,
		plugin: [],
		mcp: {},
		permission: permissionOf(spec),
	};
	return `${JSON.stringify(config, null, '\t')}\n`;
}

/** Everything allowed (the run has nobody to ask), the spec's denied tools denied; an allow-list denies the rest. */
function permissionOf(spec: OpencodeSpec): Record<string, string> {
	const {allow, deny} = spec.config.tools ?? {};
	return {
		'*': allow === undefined ? 'allow' : 'deny',
		...Object.fromEntries((allow ?? []).map(tool => [tool, 'allow'])),
		...Object.fromEntries((deny ?? []).map(tool => [tool, 'deny'])),
	};
}

/**
 * `.npmrc`: the registry is a closed port on loopback, so the plugin install opencode starts in the background
 * (a registry lookup of @opencode-ai/plugin, with no switch of its own) fails at once without leaving the machine.
 */
export function npmrc(): string {
	return 'registry=http://127.0.0.1:9/\nfetch-retries=0\n';
}
