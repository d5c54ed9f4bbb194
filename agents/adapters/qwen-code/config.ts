import type {AgentTask} from '../../adapter-contract.js';
import type {QwenSpec} from './spec.js';

/** Qwen Code's user settings under the task's `$HOME`. */
export const settingsPath = '.qwen/settings.json';

/**
 * `settings.json`: OpenAI-compatible auth, every model alias pinned to the plan's, every update, telemetry and
 * usage-statistics switch off, the background agents that would make requests of their own (memory extraction,
 * dream, skill review, follow-up suggestions, speculation) off, so every request is the task's main loop, and its
 * sleep inhibitor off: on Linux it starts `systemd-inhibit` for every model request, which asks the machine's logind
 * over D-Bus, a channel out of the task.
 */
export function settingsJson(spec: QwenSpec, task: AgentTask): string {
	const {model} = task;
	const {allow, deny} = spec.config.tools ?? {};
	const settings = {
		security: {auth: {selectedType: 'openai'}, folderTrust: {enabled: false}},
		model: {name: model},
		fastModel: model,
		compactionModel: model,
		advisorModel: model,
		visionModel: model,
		modelFallbacks: '',
		general: {enableAutoUpdate: false, preventSystemSleep: false},
		privacy: {usageStatisticsEnabled: false},
		telemetry: {enabled: false},
		memory: {enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false},
		ui: {enableFollowupSuggestions: false, enableSpeculation: false, enableUserFeedback: false},
		...(allow === undefined && deny === undefined ? {} : {tools: {...(allow ? {core: allow} : {}), ...(deny ? {exclude: deny} : {})}}),
	};
	return `${JSON.stringify(settings, null, '\t')}\n`;
}
