import {mkdir, readdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {ExecutionOutcome, Usage} from '../../engine/outcome.js';
import type {HostFailureReason} from './host-failure.js';
import type {ResolvedProvider} from '../../engine/provider-config.js';
import {HostRequest, HostResponse, hostProtocolVersion, hostWorkerCommand} from '../../workers/host-protocol.js';
import {hardDeadline, runInGroup, sandboxVariable, type GroupRun, type Launch, type ProcessRecord, type Sandbox} from '../../process/index.js';
import {digestTree} from '../source/tree-digest.js';
import {sameBinaryPath} from './host-identity.js';
import {HostCheckpoint, hostCheckpointSchema, HostTaskRecord, hostTaskSchema, type ProxyRefusals} from './host-records.js';
import {hostTaskDir, type HostSession} from './host-session.js';
import {describeIssues} from '../../controller-protocol/index.js';
import {writeJson} from '../../files/write-json.js';
import {startMeteringProxy, type MeteringProxy} from './metering-proxy.js';
import {proxyOnlySandbox, type ProxyOnlySandbox} from './proxy-only-sandbox.js';

/** The worker answers with one line; anything bigger than this is not an answer. */
export const hostStdoutLimit = 8 * 1024 * 1024;
export const hostStderrLimit = 1024 * 1024;

export interface HostTaskInput {
	index: number;
	task: {id: string; prompt: string};
	/** A fresh workspace the caller set up; it is graded by the caller after this returns. */
	workspace: string;
	stateDir: string;
	provider: ResolvedProvider;
	maxSteps: number;
	/** The task's remaining time: the worker's soft deadline; its process group is ended at the hard one (this plus the grace). */
	deadlineMs: number;
	/** Overrides the one grace (`process/grace.ts`); tests shorten it. */
	graceMs?: number;
	signal?: AbortSignal;
	/** Extra environment for the worker (never credentials the plan does not name: the caller decides). */
	env?: Record<string, string | undefined>;
	/** Run the worker under bubblewrap; its own tool commands then run inside that sandbox, not in one of their own. */
	sandbox?: Sandbox;
	/** Also write process.json here (the evidence directory's task folder). */
	processJsonIn?: string;
	stdoutLimit?: number;
	stderrLimit?: number;
	/** The worker's memory limit (process/memory-limit.ts); none when absent. */
	memoryLimitBytes?: number;
	/** What runs the worker's group: the attempt's spawner; runInGroup here when absent. */
	launch?: Launch;
}

export interface HostTaskRun {
	/** The worker's outcome when it was accepted, or when it answered but then failed (its usage is kept). */
	outcome: ExecutionOutcome | null;
	/** Null only when the worker answered, for this task, as the measured binary, and exited 0. */
	failure: {reason: HostFailureReason; message: string} | null;
	record: ProcessRecord;
	/** Turns and tokens counted at the provider boundary by this task's metering proxy: the task's usage. */
	metered: Usage;
	/** The worker's own report of its usage, when it gave an answer: a claim beside the metering. */
	claimed: Usage | null;
	/** Requests the metering proxy forwarded, and those it refused (another model, nothing to send). */
	requests: number;
	refusals: ProxyRefusals;
}

/**
 * Runs one task in the host executable: `EXE host-worker` as the leader of its own process group, the request
 * on stdin, one JSON line expected on stdout. Before the launch it writes a fresh-task checkpoint; after it,
 * whatever happened, stdout, stderr, process.json and the verdict (host-task.json) stay in the host folder.
 */
export async function runHostTask(session: HostSession, input: HostTaskInput): Promise<HostTaskRun> {
	const dir = hostTaskDir(session, input.index, input.task.id);
	await mkdir(dir, {recursive: true});
	const deadlineMs = Math.max(1, Math.floor(input.deadlineMs));
	// The checkpoint (the workspace digested, then fsynced) is written while the proxy starts: neither needs the other.
	const checkpointed = writeCheckpoint(dir, session, input, deadlineMs).then(() => null, (error: Error) => error);
	// The host talks to a proxy of its own; the key stays here, the proxy adds it.
	const keyVariable = input.provider.api_key_env;
	const proxy = await startMeteringProxy(input.provider, keyVariable === null ? null : process.env[keyVariable] ?? null).catch(async (error: unknown) => {
		await checkpointed;
		throw error;
	});
	const {contained, request} = await requestFor(session, input, proxy, deadlineMs, dir, checkpointed);
	const sandbox = contained?.sandbox;
	const env = {...input.env, ...(keyVariable === null ? {} : {[keyVariable]: undefined})};
	// The worker's engine stops itself at deadlineMs; past the grace, its group is ended.
	const hardDeadlineMs = hardDeadline(deadlineMs, input.graceMs);
	const startedMs = performance.now() - session.clockOrigin;
	const run = await (input.launch ?? runInGroup)({
		argv: [session.identity.launched, hostWorkerCommand],
		cwd: input.workspace,
		// Inside a sandbox bwrap cannot start another: the worker's tool commands share its sandbox.
		env: sandbox === undefined ? env : {...env, [sandboxVariable]: ''},
		sandbox,
		input: JSON.stringify(request),
		deadlineMs: hardDeadlineMs,
		stdoutLimit: input.stdoutLimit ?? hostStdoutLimit,
		stderrLimit: input.stderrLimit ?? hostStderrLimit,
		memoryLimitBytes: input.memoryLimitBytes ?? null,
		signal: input.signal,
	}).finally(() => Promise.all([proxy.close(), contained?.close()]));
	const endedMs = performance.now() - session.clockOrigin;
	const metered = proxy.usage();
	const refusals = proxy.refusals();
	const requests = proxy.requests();
	const record = run.record;
	await writeLaunchFiles(dir, run, input.processJsonIn);
	const answer = parseAnswer(run.stdout?.toString('utf8') ?? '');
	const failure = judge(session, input, record, answer);
	// Usage the worker reported is kept even when it then failed; an answer for another task or binary is not.
	const trusted = answer.ok && answer.response.task_id === input.task.id && answerNamesBinary(session, answer.response);
	const claimed = trusted ? answer.response.outcome.usage : null;
	const verdict: HostTaskRecord = {
		schema: hostTaskSchema,
		index: input.index,
		task_id: input.task.id,
		plan_digest: session.planDigest,
		binary: {launched: session.identity.launched, digest: session.identity.digest},
		claimed_binary: answer.ok ? answer.response.binary : null,
		exit_code: record.exit_code,
		signal: record.signal,
		wall_ms: record.wall_ms,
		started_ms: startedMs,
		ended_ms: endedMs,
		metered_usage: metered,
		claimed_usage: claimed,
		proxy_refusals: refusals,
		failure,
		answered: failure === null,
	};
	await writeJson(join(dir, 'host-task.json'), HostTaskRecord.parse(verdict), {durable: true});
	return {outcome: trusted ? answer.response.outcome : null, failure, record, metered, claimed, requests, refusals};
}

type Answer = {ok: true; response: HostResponse} | {ok: false; message: string};

function parseAnswer(stdout: string): Answer {
	const lines = stdout.split('\n').filter(line => line.trim() !== '');
	if (lines.length === 0) return {ok: false, message: 'the worker wrote no answer on stdout'};
	if (lines.length > 1) return {ok: false, message: `the worker wrote ${lines.length} lines on stdout; protocol v1 allows exactly one`};
	try {
		const parsed = HostResponse.safeParse(JSON.parse(lines[0]!));
		if (parsed.success) return {ok: true, response: parsed.data};
		return {ok: false, message: `the worker's answer is not a v1 response: ${describeIssues(parsed.error)}`};
	} catch (error) {
		return {ok: false, message: `the worker's answer is not JSON: ${(error as Error).message}`};
	}
}

function answerNamesBinary(session: HostSession, response: HostResponse): boolean {
	return response.binary.digest === session.identity.digest && sameBinaryPath(response.binary.path, session.identity);
}

/** The supervisor's verdict, from its own process record first and the worker's words last. */
function judge(session: HostSession, input: HostTaskInput, record: ProcessRecord, answer: Answer): HostTaskRun['failure'] {
	switch (record.failure) {
		case 'timeout': return {reason: 'timeout', message: `the host worker passed its deadline (${record.failure_message}) and its process group was ended`};
		case 'stdout_limit':
		case 'stderr_limit': return {reason: 'output_limit', message: record.failure_message ?? record.failure};
		case 'aborted': return {reason: 'aborted', message: 'the attempt was interrupted while the host worker ran'};
		case 'spawn': return {reason: 'init', message: record.failure_message ?? 'the host executable could not be started'};
		// Its tree was ended with the spawner (which a host can find and kill): a failure, never a pass.
		case 'spawner': return {reason: 'crash', message: record.failure_message ?? 'the spawner that ran the host worker ended'};
		default: break;
	}
	if (record.exit_code !== 0) {
		const how = record.signal !== null ? `was killed by ${record.signal}` : `exited with status ${record.exit_code}`;
		return {reason: 'crash', message: `the host worker ${how}${answer.ok ? '' : ` (${answer.message})`}`};
	}
	if (!answer.ok) return {reason: 'host', message: answer.message};
	const response = answer.response;
	if (response.task_id !== input.task.id) return {reason: 'host', message: `the worker answered for task ${response.task_id}, not ${input.task.id}`};
	if (!answerNamesBinary(session, response)) {
		return {reason: 'host', message: `the worker reports binary ${response.binary.path} (${response.binary.digest}), but the supervisor launched ${session.identity.path} (${session.identity.digest})`};
	}
	return null;
}

async function writeCheckpoint(dir: string, session: HostSession, input: HostTaskInput, deadlineMs: number): Promise<void> {
	let stateEntries = 0;
	try {
		stateEntries = (await readdir(input.stateDir)).length;
	} catch {
		stateEntries = 0;
	}
	const checkpoint: HostCheckpoint = {
		schema: hostCheckpointSchema,
		index: input.index,
		task_id: input.task.id,
		plan_digest: session.planDigest,
		binary_digest: session.identity.digest,
		workspace: input.workspace,
		workspace_files: await digestTree(input.workspace).catch(() => ({})),
		state_dir: input.stateDir,
		state_entries: stateEntries,
		deadline_ms: deadlineMs,
		written_at: new Date().toISOString(),
	};
	await writeJson(join(dir, 'checkpoint.json'), HostCheckpoint.parse(checkpoint), {durable: true});
}

/** The proxy's view of the request (its URL, never the key), written beside the checkpoint; on a failure the proxy is closed, not left listening. */
async function requestFor(session: HostSession, input: HostTaskInput, proxy: MeteringProxy, deadlineMs: number, dir: string, checkpointed: Promise<Error | null>): Promise<{contained: ProxyOnlySandbox | null; request: HostRequest}> {
	let contained: ProxyOnlySandbox | null = null;
	try {
		contained = input.sandbox === undefined ? null : await proxyOnlySandbox(input.sandbox, proxy);
		const request: HostRequest = HostRequest.parse({
			version: hostProtocolVersion,
			kind: 'task',
			task: input.task,
			workspace: input.workspace,
			state_dir: input.stateDir,
			provider: proxy.provider,
			max_steps: input.maxSteps,
			deadline_ms: deadlineMs,
			plan_digest: session.planDigest,
			expected_binary_digest: session.identity.digest,
		});
		const [unwritten] = await Promise.all([checkpointed, writeJson(join(dir, 'request.json'), request)]);
		if (unwritten !== null) throw unwritten;
		return {contained, request};
	} catch (error) {
		await checkpointed;
		await Promise.all([proxy.close(), contained?.close()]);
		throw error;
	}
}

/** What the launch left, side by side: its output, and its process record in the host folder and (when asked) the task's. */
async function writeLaunchFiles(dir: string, run: GroupRun, processJsonIn: string | undefined): Promise<void> {
	const processJson = `${JSON.stringify(run.record, null, 2)}\n`;
	await Promise.all([
		writeFile(join(dir, 'stdout.log'), run.stdout ?? Buffer.alloc(0)),
		writeFile(join(dir, 'stderr.log'), run.stderr ?? Buffer.alloc(0)),
		writeFile(join(dir, 'process.json'), processJson),
		processJsonIn === undefined ? null : mkdir(processJsonIn, {recursive: true}).then(() => writeFile(join(processJsonIn, 'process.json'), processJson)),
	]);
}
