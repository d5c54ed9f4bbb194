import {mkdirSync, realpathSync} from 'node:fs';
import {join} from 'node:path';
// The harness's files the loop runs with, not its index: patches and proposals are the search's, not a task's.
import {builtinAgent} from '../../harness/builtin-agent.js';
import {fingerprintHarness, type HarnessFingerprint} from '../../harness/fingerprint.js';
import {parseHarness, type Harness} from '../../harness/harness-schema.js';
import {renderTemplate} from '../../harness/task-template.js';
import type {AgentStepPolicyInput, TranscriptToolCall} from '../../sdk/plugin.js';
import {EngineError} from '../engine-error.js';
import type {ExecutionOutcome, EngineFailureReason} from '../outcome.js';
import {checkLoadedModules, type Composition} from '../plugins/composition.js';
import type {LoadedPlugin} from '../plugins/loaded-plugin.js';
import {transformRequest} from '../plugins/request-transform.js';
import {decideStep, type StopDecision} from '../plugins/step-policy.js';
import type {ResolvedProvider} from '../provider-config.js';
import {askProvider, type ProviderContext} from '../provider/ask-provider.js';
import {clientFor} from '../provider/openai-client.js';
import {ProviderLimiter, type ProviderLimiterShare} from '../provider/provider-limiter.js';
import {ProviderTimeMeter} from '../provider/provider-time-meter.js';
import type {CompletionRequest} from '../provider/model-request.js';
import {executeTool, parseArguments} from '../tools/execute-tool.js';
import {BackgroundJobs, type CommandContext} from '../tools/run-command.js';
import {ToolError} from '../tools/tool-error.js';
import type {ToolImplementation} from '../tools/implementations.js';
import {bindTools} from '../tools/toolset.js';
import {Deadline} from '../deadline.js';
import {deepFreeze} from '../deep-freeze.js';
import {JsonlLog} from './jsonl-log.js';
import {Transcript} from './transcript.js';
import {UsageMeter} from './usage-meter.js';

export interface RunAgentOptions {
	/** What the agent is made of; the built-in coding agent when absent. */
	harness?: Harness;
	task: {id: string; prompt: string};
	workspace: string;
	/** journal.jsonl and messages.jsonl are appended here (created when missing). */
	stateDir: string;
	/** The resolved endpoint; for the scripted provider, the server's URL and a null key variable. */
	provider: ResolvedProvider;
	/** The run's step budget (a plan's); it replaces the harness's `max_steps` when given. */
	maxSteps?: number;
	/** The run's soft deadline (a plan's); it replaces the harness's `deadline_ms` when given. */
	deadlineMs?: number;
	plugins: LoadedPlugin[];
	/** When given, every plugin must be selected by it (the loaded-module check). */
	composition?: Composition;
	signal?: AbortSignal;
	/** Called for every process group a tool starts, so the supervisor knows it. */
	onProcessGroup?: (pid: number) => void;
	/** The attempt's shared provider limiter (`createProviderLimiter`); without one, requests go out as they come. */
	limiter?: ProviderLimiterShare;
	/** Implementations besides the engine's own, by the id a harness tool is bound to (a cartridge's tools). */
	toolImplementations?: ReadonlyMap<string, ToolImplementation>;
	/** Added to the environment of every command the run starts (a supervisor's per-task marker). */
	commandEnv?: Record<string, string>;
}

type FinishingTool = Extract<ToolImplementation, {kind: 'finish'}>;

/** The harness a run uses, checked: the value, or why it cannot be run. */
type CheckedHarness = {ok: true; harness: Harness; fingerprint: HarnessFingerprint} | {ok: false; problem: string};

// The built-in harness is one constant: checked once per thread (its parse and digest were ~0.8 ms of every task's
// thread time, bench/README.md), and frozen, so that no run can change it for the next.
let builtinChecked: CheckedHarness | undefined;

function checkHarness(value: Harness | undefined): CheckedHarness {
	if (value === undefined) return (builtinChecked ??= deepFreeze(checkValue(builtinAgent)));
	return checkValue(value);
}

function checkValue(value: Harness): CheckedHarness {
	const parsed = parseHarness(value);
	if (!parsed.ok) return {ok: false, problem: `the harness is not valid: ${parsed.problem}`};
	return {ok: true, harness: parsed.harness, fingerprint: fingerprintHarness(parsed.harness)};
}

/** The state of one execution; `runAgent` drives it. */
class Execution {
	readonly deadline: Deadline;
	readonly journal: JsonlLog;
	readonly transcript: Transcript;
	readonly usage = new UsageMeter();
	readonly jobs = new BackgroundJobs();
	readonly providerTime = new ProviderTimeMeter();
	readonly maxSteps: number;
	readonly deadlineMs: number;
	steps = 0;

	constructor(readonly options: RunAgentOptions, readonly checked: CheckedHarness) {
		// A harness that cannot be run fails at once; the built-in limits only bound that moment.
		const limits = checked.ok ? checked.harness.limits : builtinAgent.limits;
		this.maxSteps = options.maxSteps ?? limits.max_steps;
		this.deadlineMs = options.deadlineMs ?? limits.deadline_ms;
		this.deadline = new Deadline(this.deadlineMs, options.signal);
		mkdirSync(options.stateDir, {recursive: true});
		this.journal = new JsonlLog(join(options.stateDir, 'journal.jsonl'));
		this.transcript = new Transcript(new JsonlLog(join(options.stateDir, 'messages.jsonl')));
		// Both files exist from the start, so an execution that ends early still leaves them for evidence
		// (the journal's first record is appended right after construction).
		this.transcript.touch();
	}

	outcome(status: ExecutionOutcome['status'], reason: EngineFailureReason | null, message: string | null, finalText: string | null, stop: StopDecision | null): ExecutionOutcome {
		return {
			status,
			reason,
			message,
			steps: this.steps,
			usage: this.usage.snapshot(),
			final_text: finalText,
			stopped_by: stop ? {plugin: stop.plugin, reason: stop.reason} : null,
			// Set once the execution has ended, so it covers all of it.
			time: null,
			infrastructure: false,
		};
	}
}

/**
 * The agent loop. Each step: the step policies (on a frozen transcript view), the request transforms, one
 * chat-completions request with the tool definitions, then the tool calls in the workspace. It ends on `done`,
 * a policy stop, the step budget (unfinished), the deadline, a cancellation, or a classified error.
 */
export async function runAgent(options: RunAgentOptions): Promise<ExecutionOutcome> {
	const startedAt = performance.now();
	const checked = checkHarness(options.harness);
	const run = new Execution(options, checked);
	const {journal} = run;
	journal.append('start', {
		task_id: options.task.id,
		workspace: options.workspace,
		provider: {base_url: options.provider.base_url, model: options.provider.model, api_key_env: options.provider.api_key_env, reasoning_effort: options.provider.reasoning_effort ?? null},
		max_steps: run.maxSteps,
		// The journal's field keeps its name: journals already written read the same.
		timeout_ms: run.deadlineMs,
		harness: checked.ok ? {name: checked.harness.name, fingerprint: checked.fingerprint} : null,
		plugins: options.plugins.map(plugin => ({id: plugin.id, origin: plugin.origin, capabilities: plugin.capabilities})),
	});
	let outcome: ExecutionOutcome;
	try {
		outcome = await loop(run);
	} catch (error) {
		const classified = error instanceof EngineError ? error : run.deadline.reason ?? new EngineError('crash', error instanceof Error ? error.message : String(error), {cause: error});
		// The stack of an unexpected error goes to the journal; the outcome keeps one line.
		if (!(error instanceof EngineError)) journal.append('crash', {message: String(error), stack: error instanceof Error ? error.stack ?? null : null});
		outcome = {...run.outcome('failed', classified.reason, classified.message, null, null), infrastructure: classified.infrastructure};
	} finally {
		for (const job of await run.jobs.stopAll()) journal.append('background_job', {job: job.id, command: job.command, process: job.run.record});
		run.deadline.dispose();
	}
	const wallMs = performance.now() - startedAt;
	outcome = {...outcome, time: run.providerTime.snapshot(wallMs)};
	journal.append('end', {outcome, wall_ms: wallMs});
	return outcome;
}

async function loop(run: Execution): Promise<ExecutionOutcome> {
	const {options, journal, transcript, deadline} = run;
	if (!run.checked.ok) throw new EngineError('init', run.checked.problem);
	const {harness} = run.checked;
	const tools = bindTools(harness, options.toolImplementations);
	const ids = options.plugins.map(plugin => plugin.id);
	const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
	if (duplicate !== undefined) throw new EngineError('init', `plugin ${duplicate} is loaded twice`);
	if (options.composition) {
		const problem = checkLoadedModules(options.composition, options.plugins);
		if (problem) throw new EngineError('init', problem);
	}
	const apiKey = readApiKey(options.provider);
	const provider: ProviderContext = {
		client: () => clientFor(options.provider.base_url, apiKey),
		limiter: attachLimiter(options.limiter),
		deadline,
		journal,
		usage: run.usage,
		time: run.providerTime,
	};
	let root: string;
	try {
		root = realpathSync(options.workspace);
	} catch (error) {
		throw new EngineError('init', `the workspace ${options.workspace} cannot be used: ${(error as Error).message}`);
	}
	const commands: CommandContext = {
		root,
		deadline,
		env: {...options.commandEnv, ...(options.provider.api_key_env ? {[options.provider.api_key_env]: undefined} : {})},
		onProcessGroup: options.onProcessGroup,
		jobs: run.jobs,
	};
	transcript.add({role: 'system', content: harness.instructions.system, step_index: null});
	transcript.add({role: 'user', content: renderTemplate(harness.task_template, {prompt: options.task.prompt, task_id: options.task.id}), step_index: null});

	for (let step = 0; ; step += 1) {
		// Once the budget is spent the loop ends without asking the policies.
		if (step >= run.maxSteps) return run.outcome('unfinished', 'unfinished', `the step budget of ${run.maxSteps} model requests is exhausted`, null, null);
		deadline.throwIfEnded();
		const policyInput: AgentStepPolicyInput = Object.freeze({
			task_id: options.task.id,
			model: options.provider.model,
			step_index: step,
			max_steps: run.maxSteps,
			transcript: transcript.view(),
			usage: Object.freeze(run.usage.snapshot()),
			elapsed_ms: deadline.elapsedMs(),
			remaining_ms: deadline.remainingMs(),
		});
		const stop = await decideStep(options.plugins, policyInput, {deadline, journal});
		if (stop) return stopWith(run, stop, step);
		const transformed = await transformRequest(options.plugins, {
			task_id: options.task.id,
			model: options.provider.model,
			step_index: step,
			messages: transcript.toMessages(),
			tools: tools.definitions,
		}, {deadline, journal});
		if ('stop' in transformed) return stopWith(run, transformed, step);

		const request: CompletionRequest = {model: options.provider.model, messages: transformed.messages, tools: tools.definitions};
		if (options.provider.reasoning_effort) request.reasoning_effort = options.provider.reasoning_effort;
		run.steps += 1;
		const answer = await askProvider(provider, request, step);
		const message = answer.choices[0]!.message;
		const calls: TranscriptToolCall[] = (message.tool_calls ?? []).map((call, index) => ({
			id: call.id || `call_hlab_${step}_${index}`,
			name: call.function.name,
			arguments: call.function.arguments ?? '',
		}));
		transcript.add({role: 'assistant', content: message.content ?? null, step_index: step, ...(calls.length > 0 ? {tool_calls: calls} : {})});
		if (calls.length === 0) {
			transcript.add({role: 'user', content: harness.instructions.continue, step_index: step});
			continue;
		}
		for (const call of calls) {
			journal.append('tool_call', {step_index: step, id: call.id, name: call.name, arguments: call.arguments});
			const implementation = tools.find(call.name)?.implementation;
			if (implementation?.kind === 'finish') {
				const summary = finishingSummary(run, implementation, call, step);
				if (summary !== null) return run.outcome('done', null, null, summary || message.content || null, null);
				continue;
			}
			const result = await executeTool(commands, call.name, call.arguments, tools);
			addToolResult(run, call, step, result.content, result.is_error, result.run?.record ?? null);
		}
	}
}

/** The summary of a finishing call, or null when its arguments are malformed (the model is told, the loop goes on). */
function finishingSummary(run: Execution, implementation: FinishingTool, call: TranscriptToolCall, step: number): string | null {
	try {
		return parseArguments(implementation.args, call.name, call.arguments).summary;
	} catch (error) {
		if (!(error instanceof ToolError)) throw error;
		addToolResult(run, call, step, `error: ${error.message}`, true);
		return null;
	}
}

function addToolResult(run: Execution, call: TranscriptToolCall, step: number, content: string, isError: boolean, processRecord: unknown = null): void {
	run.journal.append('tool_result', {step_index: step, id: call.id, name: call.name, is_error: isError, content, ...(processRecord ? {process: processRecord} : {})});
	run.transcript.add({role: 'tool', content, step_index: step, tool_call_id: call.id, tool_name: call.name, is_error: isError});
}

/** A stop becomes a visible assistant record stamped with the plugin's provenance; it is not a model turn. */
function stopWith(run: Execution, stop: StopDecision, step: number): ExecutionOutcome {
	run.transcript.add({role: 'assistant', content: stop.content, step_index: step, provenance: {plugin: stop.plugin, capability: stop.capability, reason: stop.reason}});
	run.journal.append('stop', {step_index: step, plugin: stop.plugin, capability: stop.capability, reason: stop.reason});
	return run.outcome('policy_stop', null, `stopped by plugin ${stop.plugin}: ${stop.reason}`, stop.content, stop);
}

/** The outcome of an execution that failed before its loop started (a candidate that did not activate, a missing tool). */
export function failedBeforeStart(error: EngineError): ExecutionOutcome {
	return {status: 'failed', reason: error.reason, message: error.message, steps: 0, usage: new UsageMeter().snapshot(), final_text: null, stopped_by: null, time: null, infrastructure: error.infrastructure};
}

/** The attempt's limiter in this thread, or none; a share that is not one fails the run before any request. */
function attachLimiter(share: ProviderLimiterShare | undefined): ProviderLimiter | null {
	if (share === undefined) return null;
	const limiter = ProviderLimiter.attach(share);
	if ('problem' in limiter) throw new EngineError('init', `the provider limiter is not usable: ${limiter.problem}`);
	return limiter;
}

/** The API key from the named environment variable; it is passed to the client only, never recorded. */
function readApiKey(provider: ResolvedProvider): string | null {
	if (provider.api_key_env === null) return null;
	const key = process.env[provider.api_key_env];
	if (key === undefined || key.trim() === '') throw new EngineError('auth', `the API key variable ${provider.api_key_env} is not set`);
	return key;
}
