import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import type {Test} from 'tap';
import type {AgentAdapter, AgentClassification, AgentCollected, AgentOutputs, AgentTask} from '../../../agents/adapter-contract.js';
import type {AgentPackage, AgentSpec} from '../../../agents/agent-spec.js';
import {checkSpec} from '../../../agents/index.js';
import {installRoot} from '../../../files/install-root.js';
import {agentStoreDir, installDir} from '../../../agents/store/store-root.js';
import {runInGroup} from '../../../process/index.js';
import {ScriptTurn} from '../../../scripted/response-script.js';
import {startScriptedServer} from '../../../scripted/server.js';
import {tempDir} from '../../temp-dir.js';

type Packaged = Exclude<AgentSpec, {adapter: 'command'}>;

/** The example spec of examples/agents/ for one adapter, checked. */
export async function exampleSpec<Id extends Packaged['adapter']>(id: Id): Promise<Extract<Packaged, {adapter: Id}>> {
	const checked = checkSpec(JSON.parse(await readFile(join(installRoot, 'examples', 'agents', `${id}.json`), 'utf8')));
	if (typeof checked === 'string' || checked.adapter !== id) throw new Error(`examples/agents/${id}.json: ${String(checked)}`);
	return checked as Extract<Packaged, {adapter: Id}>;
}

/** The package's folder in harness-lab's store (what the supervisor hands over), or null when it is not installed there (scripts/install-agents.sh installs it). */
export async function storedPackage(spec: {package: AgentPackage}): Promise<string | null> {
	const dir = installDir(agentStoreDir(), spec.package);
	return (await readFile(join(dir, 'node_modules', spec.package.name, 'package.json'), 'utf8').catch(() => null)) === null ? null : dir;
}

/** Why a real run of the agent cannot happen here (its package is not in the store), or false. */
export function notStored(spec: {package: AgentPackage}, packageDir: string | null): string | false {
	return packageDir === null ? `${spec.package.name}@${spec.package.version} is not in the store ${agentStoreDir()} (bash scripts/test-agents.sh puts it there; it needs the npm registry)` : false;
}

/** A task as the supervisor hands it over: a fresh workspace and `$HOME`, the given provider. */
export async function taskFor(t: Test, spec: Packaged, options: {prompt: string; baseUrl: string; packageDir: string | null; systemPrompt?: string | null}): Promise<AgentTask> {
	const root = await tempDir(t, `hlab-agent-${spec.adapter}-`);
	const [workspace, home] = [join(root, 'workspace'), join(root, 'home')];
	await Promise.all([mkdir(workspace), mkdir(home)]);
	return {
		task: {id: 'write_hello', prompt: options.prompt},
		workspace,
		home,
		baseUrl: options.baseUrl,
		apiKey: 'hlab-placeholder-key',
		model: spec.model,
		deadlineMs: 120_000,
		maxSteps: 20,
		packageDir: options.packageDir,
		specDir: root,
		systemPrompt: options.systemPrompt ?? null,
	};
}

export interface AgentRun {
	outputs: AgentOutputs;
	collected: AgentCollected;
	classification: AgentClassification;
	wallMs: number;
	leaks: number[];
}

/** Launches the agent as the supervisor would: its files under `$HOME`, only its own environment (and this file's leak marker), in its own group. */
export async function runAgent<Spec extends Packaged>(adapter: AgentAdapter<Spec>, spec: Spec, task: AgentTask): Promise<AgentRun> {
	const launch = adapter.launch(spec, task);
	for (const file of launch.files) {
		await mkdir(dirname(join(task.home, file.path)), {recursive: true});
		await writeFile(join(task.home, file.path), file.content);
	}
	const marker = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('HLAB_TEST_FILE_')));
	const run = await runInGroup({
		argv: launch.argv,
		cwd: task.workspace,
		env: {...launch.env, PATH: process.env.PATH, ...marker},
		extendEnv: false,
		...(launch.stdin.kind === 'text' ? {input: launch.stdin.text} : {}),
		deadlineMs: task.deadlineMs,
	});
	const outputs: AgentOutputs = {
		stdout: run.stdout?.toString('utf8') ?? '',
		stderr: run.stderr?.toString('utf8') ?? '',
		exitCode: run.record.exit_code,
		signal: run.record.signal,
		home: task.home,
		endedBySupervisor: run.record.failure !== null,
	};
	const collected = adapter.collect(outputs);
	return {outputs, collected, classification: adapter.classify(outputs, collected), wallMs: run.record.wall_ms, leaks: run.record.leaks};
}

/** The real scripted provider, in this process, playing one response script conversation; closed when the test ends. */
export async function scriptedProvider(t: Test, conversation: {id: string; prompt: string; turns: unknown[]}): Promise<string> {
	const server = await startScriptedServer({conversations: [{...conversation, turns: conversation.turns.map(turn => ScriptTurn.parse(turn))}]});
	t.teardown(() => server.close());
	return server.url;
}

/** What a recorded stdout fixture was, as the supervisor would have handed it over. */
export async function recordedOutputs(name: string, exitCode = 0): Promise<AgentOutputs> {
	const stdout = await readFile(join(import.meta.dirname, '../../../../test/fixtures/agents', name), 'utf8');
	return {stdout, stderr: '', exitCode, signal: null, home: '/nonexistent', endedBySupervisor: false};
}
