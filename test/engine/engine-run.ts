import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Test} from 'tap';
import {runAgent, type ExecutionOutcome, type LoadedPlugin, type RunAgentOptions} from '../../engine/index.js';
import {startScriptedServer, type ScriptedServer, type ScriptedTask} from '../../scripted/index.js';
import {scriptedModel} from '../../engine/provider-config.js';
import {tempDir} from '../temp-dir.js';

export {tempDir};

/** A scripted server for the test, closed when it ends. */
export async function scriptedServer(t: Test, tasks?: ScriptedTask[]): Promise<ScriptedServer> {
	const server = await startScriptedServer(tasks ? {tasks} : {});
	t.teardown(() => server.close());
	return server;
}

export async function readJsonl(path: string): Promise<Record<string, any>[]> {
	const text = await readFile(path, 'utf8');
	return text.split('\n').filter(line => line !== '').map(line => JSON.parse(line) as Record<string, any>);
}

export interface EngineRun {
	outcome: ExecutionOutcome;
	journal: Record<string, any>[];
	messages: Record<string, any>[];
	stateDir: string;
	workspace: string;
}

/** Runs the loop against a scripted server in a workspace prepared by `prepare`, and reads back what it recorded. */
export async function runScripted(
	t: Test,
	server: ScriptedServer,
	task: {id: string; prompt: string},
	options: {harness?: RunAgentOptions['harness']; plugins?: LoadedPlugin[]; maxSteps?: number; deadlineMs?: number; workspace?: string; signal?: AbortSignal; onProcessGroup?: (pid: number) => void; composition?: RunAgentOptions['composition']} = {},
): Promise<EngineRun> {
	const dir = await tempDir(t);
	const workspace = options.workspace ?? dir;
	const stateDir = join(dir, '.state');
	const outcome = await runAgent({
		harness: options.harness,
		task,
		workspace,
		stateDir,
		provider: {base_url: server.url, model: scriptedModel, api_key_env: null},
		maxSteps: options.maxSteps ?? 30,
		deadlineMs: options.deadlineMs ?? 60_000,
		plugins: options.plugins ?? [],
		signal: options.signal,
		onProcessGroup: options.onProcessGroup,
		composition: options.composition,
	});
	return {
		outcome,
		journal: await readJsonl(join(stateDir, 'journal.jsonl')),
		messages: (await readJsonl(join(stateDir, 'messages.jsonl'))).map(record => record.message as Record<string, any>),
		stateDir,
		workspace,
	};
}
