import type {AgentTask} from '../../adapter-contract.js';

/** pi's configuration folder under the task's `$HOME` (its default, `~/.pi/agent`). */
export const agentDir = '.pi/agent';
/** The one provider pi knows: the task's metering proxy. */
export const providerName = 'hlab';
/** Where the spec's system prompt is written; pi reads `--system-prompt` as a file when the path exists. */
export const systemPromptPath = 'hlab/system-prompt.md';

/** `models.json`: one OpenAI-compatible provider with one model, the plan's; the key is the proxy's placeholder. */
export function modelsJson(task: AgentTask): string {
	const provider = {
		baseUrl: task.baseUrl,
		api: 'openai-completions',
		apiKey: task.apiKey,
		// A plain `system` message and no reasoning_effort: what any OpenAI-compatible server accepts.
		compat: {supportsDeveloperRole: false, supportsReasoningEffort: false},
		models: [{id: task.model, reasoning: false}],
	};
	return `${JSON.stringify({providers: {[providerName]: provider}}, null, '\t')}\n`;
}

/** `settings.json`: the model pinned as the default, the install ping off, no startup banner. */
export function settingsJson(task: AgentTask): string {
	const settings = {defaultProvider: providerName, defaultModel: task.model, enableInstallTelemetry: false, quietStartup: true};
	return `${JSON.stringify(settings, null, '\t')}\n`;
}
