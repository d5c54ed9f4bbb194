import {resolve} from 'node:path';
import {Command, Option} from 'commander';
import {describeCartridge, diffCartridges, loadCartridge, renderDescription, type LoadResult} from '../cartridges/index.js';
import {ProviderConfig} from '../engine/index.js';
import {readResponseScript} from '../scripted/index.js';
import {
	evalCartridge, renderDiff, renderReplay, renderRun, replayRun, type EvalProvider,
} from '../supervisor/cartridge-commands/index.js';
import {fail, failedExit, okExit, usageExit} from './exit-codes.js';

// Provider flags are parsed here for now; once the cli helper's shared flag parsing lands, this file should use it.
interface ProviderFlags {
	provider: 'scripted' | 'openai-compatible';
	responses?: string;
	baseUrl?: string;
	model?: string;
	apiKeyEnv: string;
	reasoningEffort?: string;
}

interface EvalFlags extends ProviderFlags {
	out: string;
	case?: string;
	maxSteps?: string;
	threshold?: string;
	judge?: boolean;
	judgeModel?: string;
	json?: boolean;
}

export function registerCartridge(program: Command): void {
	const cartridge = program.command('cartridge').description('a harness as a folder: describe it, evaluate its cases, replay a captured run, diff two versions');
	cartridge
		.command('describe <dir>')
		.description('load a cartridge without a model call and show everything in it with its digests; a broken one gets every problem listed')
		.option('--json', 'print JSON')
		.action(async (dir: string, flags: {json?: boolean}) => describeCommand(dir, flags));
	const evaluate = cartridge
		.command('eval <dir>')
		.description('run the cartridge\'s cases, judge each with its collectors and graders, and keep one record per case')
		.requiredOption('--out <dir>', 'where the run is recorded (new or empty)')
		.option('--case <id>', 'run this case only')
		.option('--max-steps <n>', 'replace the contract\'s max_steps')
		.option('--threshold <value>', 'fail any scored grader below this value (0..1)')
		.option('--judge', 'run the graders that ask a model (modelGrader), on the provider\'s endpoint')
		.option('--judge-model <name>', 'with --judge: the model they ask (default: the provider\'s model)')
		.option('--json', 'print run.json');
	providerOptions(evaluate).action(async (dir: string, flags: EvalFlags) => evalCommand(dir, flags));
	cartridge
		.command('replay <run>')
		.description('re-run a recorded run\'s cases against another cartridge with the recorded model responses fixed, and report what changed')
		.requiredOption('--cartridge <dir>', 'the (changed) cartridge to replay against')
		.requiredOption('--out <dir>', 'where the replay is recorded (new or empty)')
		.option('--json', 'print replay.json')
		.action(async (run: string, flags: {cartridge: string; out: string; json?: boolean}) => replayCommand(run, flags));
	cartridge
		.command('diff <before> <after>')
		.description('the structural difference of two cartridges: prompt, tool schemas and code, contract, runtime, cases, collectors, graders (exit 1 when they differ)')
		.option('--show', 'show the changed lines')
		.option('--json', 'print JSON')
		.action(async (before: string, after: string, flags: {show?: boolean; json?: boolean}) => diffCommand(before, after, flags));
}

function providerOptions(command: Command): Command {
	return command
		.addOption(new Option('--provider <kind>', 'the model provider').choices(['scripted', 'openai-compatible']).default('scripted'))
		.option('--responses <file>', 'scripted: the response script (per case id, the model turns)')
		.option('--base-url <url>', 'openai-compatible: the API base URL')
		.option('--model <name>', 'openai-compatible: the model')
		.option('--api-key-env <name>', 'openai-compatible: the environment variable holding the API key', 'OPENAI_API_KEY')
		.option('--reasoning-effort <effort>', 'openai-compatible: the reasoning effort to request');
}

/** Every problem of a broken cartridge, one per line; empty for a loaded one. */
function brokenMessage(dir: string, loaded: LoadResult): string {
	return loaded.ok ? '' : `the cartridge ${dir} is broken:\n${loaded.problems.map(problem => `  ${problem}`).join('\n')}`;
}

async function describeCommand(dir: string, flags: {json?: boolean}): Promise<void> {
	const loaded = await loadCartridge(resolve(dir));
	if (!loaded.ok) return fail(brokenMessage(dir, loaded), usageExit);
	process.stdout.write(flags.json ? `${JSON.stringify(describeCartridge(loaded.cartridge), null, 2)}\n` : renderDescription(loaded.cartridge));
}

/** The provider the flags ask for, or why they do not make one. */
async function evalProvider(flags: ProviderFlags): Promise<{ok: true; provider: EvalProvider} | {ok: false; problem: string}> {
	if (flags.provider === 'scripted') {
		const stray = ([['--base-url', flags.baseUrl], ['--model', flags.model], ['--reasoning-effort', flags.reasoningEffort]] as const).filter(([, value]) => value !== undefined);
		if (stray.length > 0) return {ok: false, problem: `${stray.map(([name]) => name).join(', ')} applies only with --provider openai-compatible`};
		if (!flags.responses) return {ok: false, problem: '--provider scripted needs --responses FILE (a response script)'};
		const path = resolve(flags.responses);
		const read = await readResponseScript(path);
		return read.ok ? {ok: true, provider: {kind: 'scripted', script: read.script, digest: read.digest, path}} : {ok: false, problem: read.problem};
	}
	if (flags.responses) return {ok: false, problem: '--responses applies only with --provider scripted'};
	if (!flags.baseUrl || !flags.model) return {ok: false, problem: '--provider openai-compatible needs --base-url and --model'};
	const parsed = ProviderConfig.safeParse({kind: 'openai-compatible', base_url: flags.baseUrl, model: flags.model, api_key_env: flags.apiKeyEnv, reasoning_effort: flags.reasoningEffort ?? null});
	if (!parsed.success || parsed.data.kind !== 'openai-compatible') return {ok: false, problem: `invalid provider settings: ${parsed.error?.issues.map(issue => `${issue.path.join('.')}: ${issue.message}`).join('; ') ?? ''}`};
	return {ok: true, provider: {kind: 'openai-compatible', config: parsed.data}};
}

function numberFlag(name: string, text: string | undefined, check: (value: number) => boolean): number | null {
	if (text === undefined) return null;
	const value = Number(text);
	if (text.trim() === '' || !check(value)) throw new Error(`${name} got ${text}`);
	return value;
}

/** Cancels the work on SIGINT or SIGTERM, so the case in flight ends cleanly and is recorded. */
async function cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const controller = new AbortController();
	const onSignal = (): void => controller.abort();
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		return await work(controller.signal);
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
	}
}

async function evalCommand(dir: string, flags: EvalFlags): Promise<void> {
	let maxSteps: number | null;
	let threshold: number | null;
	try {
		maxSteps = numberFlag('--max-steps must be a positive whole number;', flags.maxSteps, value => Number.isInteger(value) && value > 0);
		threshold = numberFlag('--threshold must be a number from 0 to 1;', flags.threshold, value => value >= 0 && value <= 1);
	} catch (error) {
		return fail((error as Error).message, usageExit);
	}
	if (flags.judgeModel !== undefined && !flags.judge) return fail('--judge-model applies only with --judge', usageExit);
	const provider = await evalProvider(flags);
	if (!provider.ok) return fail(provider.problem, usageExit);
	const out = resolve(flags.out);
	const result = await cancellable(signal => evalCartridge({dir: resolve(dir), out, caseIds: flags.case === undefined ? null : [flags.case], maxSteps, threshold, judge: flags.judge ? {model: flags.judgeModel ?? null} : null, provider: provider.provider, signal}));
	// An interrupted evaluation is a failed run, not a usage mistake.
	if (!result.ok) return fail(result.problems.join('\n  '), result.reason === 'interrupted' ? failedExit : usageExit);
	process.stdout.write(flags.json ? `${JSON.stringify(result.run, null, 2)}\n` : renderRun(result.run, result.records, out));
	process.exitCode = result.run.exit_status;
}

async function replayCommand(run: string, flags: {cartridge: string; out: string; json?: boolean}): Promise<void> {
	const out = resolve(flags.out);
	const result = await cancellable(signal => replayRun({run: resolve(run), cartridge: resolve(flags.cartridge), out, signal}));
	// A recording that cannot be read is a failed replay, not a usage mistake.
	if (!result.ok) return fail(result.problems.join('\n  '), result.reason === 'malformed_record' || result.reason === 'interrupted' ? failedExit : usageExit);
	process.stdout.write(flags.json ? `${JSON.stringify(result.report, null, 2)}\n` : `${renderReplay(result.report)}${renderRun(result.evaluation.run, result.evaluation.records, out)}`);
	process.exitCode = result.evaluation.run.exit_status;
}

async function diffCommand(before: string, after: string, flags: {show?: boolean; json?: boolean}): Promise<void> {
	const [a, b] = await Promise.all([loadCartridge(resolve(before)), loadCartridge(resolve(after))]);
	if (!a.ok || !b.ok) return fail([brokenMessage(before, a), brokenMessage(after, b)].filter(Boolean).join('\n'), usageExit);
	const diff = await diffCartridges(a.cartridge, b.cartridge, {show: flags.show ?? false});
	process.stdout.write(flags.json ? `${JSON.stringify(diff, null, 2)}\n` : renderDiff(diff));
	process.exitCode = diff.changes.length === 0 ? okExit : failedExit;
}
