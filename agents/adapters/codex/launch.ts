import {join} from 'node:path';
import type {AgentLaunch, AgentTask} from '../../adapter-contract.js';
import {codexHome, configPath, configToml, keyVariable, systemPromptPath} from './config.js';
import type {CodexSpec} from './spec.js';
import {storeTree} from '../store-tree.js';

/** The native binary the package's codex.js would exec, from the platform package the store installed beside it. */
const targets: Record<string, {pkg: string; triple: string}> = {
	'linux-x64': {pkg: 'codex-linux-x64', triple: 'x86_64-unknown-linux-musl'},
	'linux-arm64': {pkg: 'codex-linux-arm64', triple: 'aarch64-unknown-linux-musl'},
	'darwin-x64': {pkg: 'codex-darwin-x64', triple: 'x86_64-apple-darwin'},
	'darwin-arm64': {pkg: 'codex-darwin-arm64', triple: 'aarch64-apple-darwin'},
};

/** `codex exec --json`, the task on stdin (`-`): the native binary itself, so that signals reach Codex and not a node wrapper. */
export function launch(spec: CodexSpec, task: AgentTask): AgentLaunch {
	const files = [{path: configPath, content: configToml(task)}];
	if (task.systemPrompt !== null) files.push({path: systemPromptPath, content: task.systemPrompt});
	const argv = [binaryOf(task), 'exec', '--json', '--color', 'never', ...spec.flags, '-'];
	return {argv, env: environment(task), files, stdin: {kind: 'text', text: task.task.prompt}};
}

function binaryOf(task: AgentTask): string {
	const target = targets[`${process.platform}-${process.arch}`];
	if (target === undefined) throw new Error(`the codex adapter knows no Codex binary for ${process.platform}-${process.arch}`);
	return join(storeTree(task, 'codex'), '@openai', target.pkg, 'vendor', target.triple, 'bin', 'codex');
}

function environment(task: AgentTask): Record<string, string> {
	return {HOME: task.home, CODEX_HOME: join(task.home, codexHome), [keyVariable]: task.apiKey, NO_COLOR: '1', TERM: 'dumb'};
}
