import {join} from 'node:path';
import type {AgentLaunch, AgentTask} from '../../adapter-contract.js';
import {agentDir, modelsJson, providerName, settingsJson, systemPromptPath} from './config.js';
import type {PiSpec} from './spec.js';
import {storeTree} from '../store-tree.js';

/** pi's built-in tools that are on by default: `config.tools.deny` is taken from these. */
const defaultTools = ['read', 'bash', 'edit', 'write'];

/**
 * `pi --mode json -p`, offline, with nothing discovered from the workspace or its parents (extensions, skills,
 * prompt templates, themes, AGENTS.md/CLAUDE.md): the task reaches it on stdin, so no text of it is read as a flag or an `@file`.
 */
export function launch(spec: PiSpec, task: AgentTask): AgentLaunch {
	const files = [
		{path: join(agentDir, 'models.json'), content: modelsJson(task)},
		{path: join(agentDir, 'settings.json'), content: settingsJson(task)},
	];
	const argv = [process.execPath, join(storeTree(task, 'pi'), spec.package.name, 'dist', 'cli.js'), '--mode', 'json', '--print', '--offline', '--provider', providerName, '--model', task.model];
	argv.push('--no-extensions', '--no-skills', '--no-prompt-templates', '--no-themes', '--no-context-files');
	const tools = toolsOf(spec);
	if (tools !== null) argv.push('--tools', tools.join(','));
	if (task.systemPrompt !== null) {
		files.push({path: systemPromptPath, content: task.systemPrompt});
		argv.push('--system-prompt', join(task.home, systemPromptPath));
	}
	argv.push(...spec.flags);
	return {argv, env: environment(task), files, stdin: {kind: 'text', text: task.task.prompt}};
}

/** The allow-list pi starts with: the spec's own, or its defaults without the denied ones; null keeps pi's defaults. */
function toolsOf(spec: PiSpec): string[] | null {
	const {allow, deny} = spec.config.tools ?? {};
	if (allow === undefined && deny === undefined) return null;
	return (allow ?? defaultTools).filter(tool => !(deny ?? []).includes(tool));
}

/** Every startup network operation off (update check, package checks, install telemetry). */
function environment(task: AgentTask): Record<string, string> {
	return {HOME: task.home, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0', NO_COLOR: '1', TERM: 'dumb'};
}
