import {mkdir, writeFile} from 'node:fs/promises';
import {dirname, join, relative, resolve} from 'node:path';
import {adapterOf, type AgentClassification, type AgentCollected, type AgentLaunch, type AgentOutputs, type AgentTask} from '../../agents/index.js';
import {EngineFailureReason, type ExecutionOutcome, type Usage} from '../../engine/outcome.js';
import type {ResolvedProvider} from '../../engine/provider-config.js';
import {writeJson} from '../../files/write-json.js';
import {hardDeadline, runInGroup, type GroupRun, type Launch, type ProcessRecord, type Sandbox} from '../../process/index.js';
import {proxyOnlySandbox, startMeteringProxy, writeMeteringRecord, type MeteringProxy} from '../host/index.js';
import type {AdmittedAgent} from './admit-agent.js';
import {agentEndpoint} from './agent-endpoint.js';
import {agentEnvironment} from './agent-environment.js';
import {AgentTaskRecord, agentTaskSchema} from './agent-task-record.js';
import {judgeAgent, type AgentFailure} from './agent-verdict.js';

/** An agent's chatter is kept, but not without end: past these its tree is ended (output_limit). */
export const agentStdoutLimit = 16 * 1024 * 1024;
export const agentStderrLimit = 4 * 1024 * 1024;
/** What the agent is given for a key: the proxy adds the real one, which never leaves the supervisor. */
const placeholderKey = 'hlab-metered';

export interface AgentTaskInput {
	agent: AdmittedAgent;
	index: number;
	task: {id: string; prompt: string};
	/** A fresh workspace the caller set up and grades after this returns: the agent's working directory. */
	workspace: string;
	/** The task's runtime folder: the agent's fresh `$HOME` and TMPDIR are made in it. */
	runtime: string;
	/** The task's evidence folder, and its path relative to the evidence directory. */
	evidence: {dir: string; relDir: string};
	provider: ResolvedProvider;
	maxSteps: number;
	deadlineMs: number;
	/** Overrides the one grace (`process/grace.ts`); tests shorten it. */
	graceMs?: number;
	signal?: AbortSignal;
	/** performance.now() of the attempt's start: started_ms and ended_ms are measured from it. */
	clockOrigin: number;
	stdoutLimit?: number;
	stderrLimit?: number;
	/** Run the agent under bubblewrap, given what it may write; its network is then its proxy's port alone. */
	sandbox?: (writable: string[]) => Sandbox;
	/** The agent's memory limit (process/memory-limit.ts), inherited by every process it starts; none when absent. */
	memoryLimitBytes?: number;
	/** What runs the agent's tree: the attempt's spawner; runInGroup here when absent. */
	launch?: Launch;
}

export interface AgentTaskRun {
	/** Built from the supervisor's verdict; null only when the agent never started. */
	outcome: ExecutionOutcome | null;
	failure: AgentFailure | null;
	record: ProcessRecord | null;
	/** The task's usage: what its metering proxy counted. */
	metered: Usage;
	usageClaim: Usage | null;
	/** The files written into the task's evidence folder, relative to the evidence directory. */
	evidence: Record<string, string>;
}

/**
 * Runs one task with a third-party agent: a fresh `$HOME`, the task's own metering proxy as its only provider, the
 * adapter's launch, then the agent's tree under the supervisor (its own group and cgroup, the hard deadline, byte
 * limits, stdin closed unless the task goes there, an environment of nothing but what the launch and the spec's
 * allow-list name). Whatever happened, stdout, stderr, process.json, messages.jsonl and agent-task.json stay.
 */
export async function runAgentTask(input: AgentTaskInput): Promise<AgentTaskRun> {
	const home = join(input.runtime, 'home');
	const tmp = join(input.runtime, 'tmp');
	await Promise.all([mkdir(home, {recursive: true}), mkdir(tmp, {recursive: true}), mkdir(input.evidence.dir, {recursive: true})]);
	const {proxied, suffix} = agentEndpoint(input.provider);
	const keyVariable = input.provider.api_key_env;
	const proxy = await startMeteringProxy(proxied, keyVariable === null ? null : process.env[keyVariable] ?? null);
	const adapter = adapterOf(input.agent.loaded.spec);
	let launch: AgentLaunch;
	try {
		launch = adapter.launch(input.agent.loaded.spec, agentTask(input, home, `${proxy.provider.base_url}${suffix}`));
		await writeHomeFiles(home, launch.files);
	} catch (error) {
		await proxy.close();
		return notLaunched(input, proxy, {reason: 'init', message: `the ${adapter.id} adapter could not launch the agent: ${(error as Error).message}`});
	}
	const env = agentEnvironment({launch: launch.env, home, tmp, allowed: input.agent.loaded.spec.env});
	// Sandboxed, its network is its proxy alone.
	const contained = input.sandbox === undefined ? null : await proxyOnlySandbox(input.sandbox([input.workspace, home, tmp]), proxy);
	const startedMs = performance.now() - input.clockOrigin;
	const run = await (input.launch ?? runInGroup)({
		argv: launch.argv,
		cwd: input.workspace,
		env,
		extendEnv: false,
		...(launch.stdin.kind === 'text' ? {input: launch.stdin.text} : {}),
		// The agent is told its deadline; past it and the grace, its tree is ended.
		deadlineMs: hardDeadline(Math.max(1, Math.floor(input.deadlineMs)), input.graceMs),
		...(input.graceMs === undefined ? {} : {graceMs: input.graceMs}),
		stdoutLimit: input.stdoutLimit ?? agentStdoutLimit,
		stderrLimit: input.stderrLimit ?? agentStderrLimit,
		signal: input.signal,
		memoryLimitBytes: input.memoryLimitBytes ?? null,
		...(contained === null ? {} : {sandbox: contained.sandbox}),
	}).finally(() => Promise.all([proxy.close(), contained?.close()]));
	const endedMs = performance.now() - input.clockOrigin;
	return judgeAndRecord(input, {run, launch, env, proxy, home, startedMs, endedMs});
}

/** What the adapter is handed: the task, its folders, the proxy, and nothing of the user's. */
function agentTask(input: AgentTaskInput, home: string, baseUrl: string): AgentTask {
	const {agent} = input;
	return {
		task: input.task, workspace: input.workspace, home, baseUrl, apiKey: placeholderKey, model: input.provider.model,
		deadlineMs: input.deadlineMs, maxSteps: input.maxSteps, packageDir: agent.packageDir, specDir: agent.loaded.dir, systemPrompt: agent.systemPrompt,
	};
}

/** The adapter's files go under the task's `$HOME` and nowhere else. */
async function writeHomeFiles(home: string, files: AgentLaunch['files']): Promise<void> {
	for (const file of files) {
		const path = resolve(home, file.path);
		if (relative(home, path).startsWith('..') || relative(home, path) === '') throw new Error(`the file ${file.path} is not inside the task's $HOME`);
		await mkdir(dirname(path), {recursive: true});
		await writeFile(path, file.content);
	}
}

interface Ran {
	run: GroupRun;
	launch: AgentLaunch;
	env: Record<string, string>;
	proxy: MeteringProxy;
	home: string;
	startedMs: number;
	endedMs: number;
}

async function judgeAndRecord(input: AgentTaskInput, ran: Ran): Promise<AgentTaskRun> {
	const {run, proxy} = ran;
	const record = run.record;
	const outputs: AgentOutputs = {
		stdout: run.stdout?.toString('utf8') ?? '', stderr: run.stderr?.toString('utf8') ?? '', exitCode: record.exit_code, signal: record.signal,
		home: ran.home, endedBySupervisor: record.failure !== null,
	};
	const adapter = adapterOf(input.agent.loaded.spec);
	const collected = orNull((): AgentCollected => adapter.collect(outputs));
	const classification = collected === null ? null : orNull((): AgentClassification => adapter.classify(outputs, collected));
	const last = proxy.lastExchange();
	const failure = judgeAgent(record, classification, last);
	const metered = proxy.usage();
	const {dir, relDir} = input.evidence;
	await Promise.all([
		writeFile(join(dir, 'stdout.log'), run.stdout ?? Buffer.alloc(0)),
		writeFile(join(dir, 'stderr.log'), run.stderr ?? Buffer.alloc(0)),
		writeFile(join(dir, 'process.json'), `${JSON.stringify(record, null, 2)}\n`),
		writeFile(join(dir, 'messages.jsonl'), (collected?.messages ?? []).map(message => `${JSON.stringify(message)}\n`).join('')),
	]);
	const verdict: AgentTaskRecord = {
		schema: agentTaskSchema, index: input.index, task_id: input.task.id, agent: input.agent.identity,
		argv: ran.launch.argv, env_names: Object.keys(ran.env).sort(),
		exit_code: record.exit_code, signal: record.signal, wall_ms: record.wall_ms, started_ms: ran.startedMs, ended_ms: ran.endedMs,
		classification: classification === null ? null : {status: classification.status, reason: classification.status === 'failed' ? classification.reason : null, message: classification.status === 'failed' ? classification.message : null},
		last_exchange: last, metered_usage: metered, usage_claim: collected?.usageClaim ?? null, requests: proxy.requests(), proxy_refusals: proxy.refusals(),
		leaked: record.killed.filter(killed => record.leaks.includes(killed.pid)).map(({pid, comm, how}) => ({pid, comm, how})),
		final_text: collected?.finalText ?? null, failure,
	};
	await writeJson(join(dir, 'agent-task.json'), AgentTaskRecord.parse(verdict), {durable: true});
	const evidence = {
		...Object.fromEntries(['stdout.log', 'stderr.log', 'process.json', 'messages.jsonl', 'agent-task.json'].map(name => [evidenceKey(name), `${relDir}/${name}`])),
		...await writeMeteringRecord(input.evidence, {usage: metered, requests: proxy.requests(), refusals: proxy.refusals()}),
	};
	return {outcome: outcomeOf(failure, metered, collected), failure, record, metered, usageClaim: collected?.usageClaim ?? null, evidence};
}

/** The engine-shaped outcome graders read (`final_text`); the usage is the metering, never the agent's claim. */
function outcomeOf(failure: AgentFailure | null, metered: Usage, collected: AgentCollected | null): ExecutionOutcome {
	const engineReason = failure === null ? null : EngineFailureReason.safeParse(failure.reason).data ?? null;
	return {
		status: failure === null ? 'done' : 'failed', reason: engineReason, message: failure?.message ?? null, steps: metered.turns, usage: metered,
		final_text: collected?.finalText ?? null, stopped_by: null, time: null, infrastructure: null,
	};
}

/** The agent never started: the reason, the metering (nothing), and the verdict file. */
async function notLaunched(input: AgentTaskInput, proxy: MeteringProxy, failure: AgentFailure): Promise<AgentTaskRun> {
	const metered = proxy.usage();
	const evidence = await writeMeteringRecord(input.evidence, {usage: metered, requests: proxy.requests(), refusals: proxy.refusals()});
	return {outcome: null, failure, record: null, metered, usageClaim: null, evidence};
}

function evidenceKey(file: string): string {
	return file.replace(/\.(log|json|jsonl)$/, '').replace('-', '_');
}

/** An adapter that throws reading the output is an adapter that could not read it: null, and the verdict says so. */
function orNull<T>(read: () => T): T | null {
	try {
		return read();
	} catch {
		return null;
	}
}
