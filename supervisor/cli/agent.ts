import {mkdtemp, readdir, stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {Command, Option} from 'commander';
import {
	compileCandidate, EngineError, failedBeforeStart, loadCandidate, ProviderConfig, resolveProvider, runAgent,
	type CandidateSnapshot, type ExecutionOutcome, type LoadedPlugin,
} from '../../engine/index.js';
import {startScriptedServer, type ScriptedServer} from '../../scripted/index.js';
import {getTask, builtinTasks, missingTools, type Grade} from '../../tasks/index.js';
import {fail, failedExit, okExit, usageExit} from './exit-codes.js';
import {parseDuration} from './parse-units.js';

interface AgentFlags {
	task: string;
	workspace: string;
	candidate?: string;
	provider: 'scripted' | 'openai-compatible';
	baseUrl?: string;
	model?: string;
	apiKeyEnv: string;
	reasoningEffort?: string;
	maxSteps: string;
	timeout: string;
	gradeTimeout: string;
	stateDir?: string;
	json?: boolean;
}

export function registerAgent(program: Command): void {
	program
		.command('agent')
		.description('run one built-in task with the agent engine outside an experiment, then grade the workspace independently')
		.requiredOption('--task <id>', `the task (${builtinTasks.map(task => task.id).join(', ')})`)
		.requiredOption('--workspace <dir>', 'the task workspace: set up from the task\'s files when it does not exist; an existing one must be empty')
		.option('--candidate <file>', 'a single-file candidate plugin (TypeScript) to load')
		.addOption(new Option('--provider <kind>', 'the model provider').choices(['scripted', 'openai-compatible']).default('scripted'))
		.option('--base-url <url>', 'openai-compatible: the API base URL (e.g. https://api.openai.com/v1)')
		.option('--model <name>', 'openai-compatible: the model')
		.option('--api-key-env <name>', 'openai-compatible: the environment variable holding the API key', 'OPENAI_API_KEY')
		.option('--reasoning-effort <effort>', 'openai-compatible: the reasoning effort to request')
		.option('--max-steps <n>', 'the step budget (model requests)', '30')
		.option('--timeout <duration>', 'the execution deadline', '2m')
		.option('--grade-timeout <duration>', 'the grader\'s deadline', '1m')
		.option('--state-dir <dir>', 'where journal.jsonl and messages.jsonl go (default: a new temporary directory)')
		.option('--json', 'print the result as JSON')
		.action(async (flags: AgentFlags) => runAgentCommand(flags));
}

async function runAgentCommand(flags: AgentFlags): Promise<void> {
	const task = getTask(flags.task);
	if (!task) return fail(`unknown task ${flags.task} (known: ${builtinTasks.map(entry => entry.id).join(', ')})`);
	let maxSteps: number;
	let timeoutMs: number;
	let gradeTimeoutMs: number;
	let config: ProviderConfig;
	try {
		maxSteps = Number(flags.maxSteps);
		if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new Error(`--max-steps must be a positive whole number, got ${flags.maxSteps}`);
		timeoutMs = parseDuration(flags.timeout);
		gradeTimeoutMs = parseDuration(flags.gradeTimeout);
		config = providerConfig(flags);
	} catch (error) {
		return fail((error as Error).message, usageExit);
	}
	const workspace = resolve(flags.workspace);
	const problem = await workspaceProblem(workspace);
	if (problem) return fail(problem, usageExit);
	await task.setup(workspace);
	const stateDir = flags.stateDir ? resolve(flags.stateDir) : await mkdtemp(join(tmpdir(), 'hlab-agent-'));

	const controller = new AbortController();
	const onSignal = (): void => controller.abort();
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	let server: ScriptedServer | null = null;
	let snapshot: CandidateSnapshot | null = null;
	let plugin: LoadedPlugin | null = null;
	const startedAt = performance.now();
	let outcome: ExecutionOutcome;
	try {
		const missing = missingTools(task.tools);
		if (missing.length > 0) throw new EngineError('missing_tool', `the task needs ${missing.join(', ')} on PATH`);
		if (flags.candidate) {
			snapshot = await compileCandidate(flags.candidate);
			plugin = await loadCandidate(snapshot);
		}
		if (config.kind === 'scripted') server = await startScriptedServer();
		outcome = await runAgent({
			task,
			workspace,
			stateDir,
			provider: resolveProvider(config, server?.url),
			maxSteps,
			timeoutMs,
			plugins: plugin ? [plugin] : [],
			signal: controller.signal,
		});
	} catch (error) {
		if (!(error instanceof EngineError)) throw error;
		outcome = failedBeforeStart(error);
	} finally {
		await server?.close();
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
	}
	const wallMs = performance.now() - startedAt;
	const grade: Grade = await task.grade(workspace, {timeoutMs: gradeTimeoutMs, finalText: outcome.final_text});
	const result = {
		schema: 'harness-lab/agent-run@1',
		task: task.id,
		workspace,
		state_dir: stateDir,
		provider: config.kind === 'scripted' ? {kind: 'scripted'} : {kind: config.kind, base_url: config.base_url, model: config.model, api_key_env: config.api_key_env, reasoning_effort: config.reasoning_effort ?? null},
		candidate: snapshot ? {source_path: snapshot.source_path, source_digest: snapshot.source_digest, code_digest: snapshot.code_digest, plugin_id: plugin?.id ?? null} : null,
		outcome,
		grade,
		wall_ms: Math.round(wallMs),
	};
	process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : describe(result));
	process.exitCode = grade.passed ? okExit : failedExit;
}

function providerConfig(flags: AgentFlags): ProviderConfig {
	if (flags.provider === 'scripted') {
		const stray = ([['--base-url', flags.baseUrl], ['--model', flags.model], ['--reasoning-effort', flags.reasoningEffort]] as const).filter(([, value]) => value !== undefined);
		if (stray.length > 0) throw new Error(`${stray.map(([name]) => name).join(', ')} applies only with --provider openai-compatible`);
		return {kind: 'scripted'};
	}
	if (!flags.baseUrl || !flags.model) throw new Error('--provider openai-compatible needs --base-url and --model');
	const parsed = ProviderConfig.safeParse({kind: 'openai-compatible', base_url: flags.baseUrl, model: flags.model, api_key_env: flags.apiKeyEnv, reasoning_effort: flags.reasoningEffort ?? null});
	if (!parsed.success) throw new Error(`invalid provider settings: ${parsed.error.issues.map(issue => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
	return parsed.data;
}

/** Why the workspace cannot be used, or null: it must be missing or an empty directory. */
async function workspaceProblem(workspace: string): Promise<string | null> {
	let info;
	try {
		info = await stat(workspace);
	} catch {
		return null;
	}
	if (!info.isDirectory()) return `workspace ${workspace} exists and is not a directory`;
	if ((await readdir(workspace)).length > 0) return `workspace ${workspace} is not empty; give a new or empty directory`;
	return null;
}

function describe(result: {task: string; workspace: string; state_dir: string; outcome: ExecutionOutcome; grade: Grade; wall_ms: number; candidate: {plugin_id: string | null} | null}): string {
	const {outcome, grade} = result;
	const known = (value: number | null): string => (value === null ? 'unknown' : String(value));
	const {usage} = outcome;
	const lines = [
		`task       ${result.task}${result.candidate ? ` (candidate ${result.candidate.plugin_id ?? 'not loaded'})` : ''}`,
		`outcome    ${outcome.status}${outcome.reason && outcome.reason !== outcome.status ? ` (${outcome.reason})` : ''} after ${outcome.steps} step${outcome.steps === 1 ? '' : 's'}${outcome.message ? `: ${outcome.message}` : ''}`,
		...(outcome.stopped_by ? [`stopped by ${outcome.stopped_by.plugin}: ${outcome.stopped_by.reason}`] : []),
		...(outcome.final_text ? [`final      ${outcome.final_text.replace(/\s+/g, ' ')}`] : []),
		`grade      ${grade.passed ? 'passed' : 'FAILED'}${grade.score === null ? '' : ` (score ${grade.score.toFixed(2)})`}`,
		...grade.details.split('\n').map(line => `  ${line}`),
		`usage      ${usage.turns} turn${usage.turns === 1 ? '' : 's'}; tokens: input ${known(usage.input_tokens)} (cache read ${known(usage.cache_read_tokens)}, cache write ${known(usage.cache_write_tokens)}), output ${known(usage.output_tokens)}, total ${known(usage.total_tokens)}; cost ${usage.cost_usd === null ? 'unknown' : `$${usage.cost_usd}`}`,
		`wall time  ${(result.wall_ms / 1000).toFixed(1)} s`,
		`workspace  ${result.workspace}`,
		`journal    ${join(result.state_dir, 'journal.jsonl')}`,
	];
	return `${lines.join('\n')}\n`;
}
