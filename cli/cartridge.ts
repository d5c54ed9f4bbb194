import {resolve} from 'node:path';
import type {Command} from 'commander';
import {describeCartridge, diffCartridges, loadCartridge, renderDescription, type LoadResult} from '../cartridges/index.js';
import {ProviderConfig} from '../engine/index.js';
import {readResponseScript} from '../scripted/index.js';
import type {EvalProvider} from '../supervisor/cartridge-commands/index.js';
import {UsageError} from '../supervisor/input-error.js';
import {fail, failedExit, okExit} from './exit-codes.js';
import {addProviderChoiceOptions, readProviderChoice, type ProviderChoiceFlags} from './provider-flags.js';
import {listenForStop, type StopWords} from './stop-signals.js';
import {outputPath} from './path-option.js';

interface EvalFlags extends ProviderChoiceFlags {
	responses?: string;
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
		.requiredOption('--out <dir>', 'where the run is recorded (new or empty)', outputPath)
		.option('--case <id>', 'run this case only')
		.option('--max-steps <n>', 'replace the contract\'s max_steps')
		.option('--threshold <value>', 'fail any scored grader below this value (0..1)')
		.option('--judge', 'run the graders that ask a model (modelGrader), on the provider\'s endpoint')
		.option('--judge-model <name>', 'with --judge: the model they ask (default: the provider\'s model)')
		.option('--json', 'print run.json');
	addProviderChoiceOptions(evaluate)
		.option('--responses <file>', 'scripted: the response script (per case id, the model turns)')
		.action(async (dir: string, flags: EvalFlags) => evalCommand(dir, flags));
	cartridge
		.command('replay <run>')
		.description('re-run a recorded run\'s cases against another cartridge with the recorded model responses fixed, and report what changed')
		.requiredOption('--cartridge <dir>', 'the (changed) cartridge to replay against')
		.requiredOption('--out <dir>', 'where the replay is recorded (new or empty)', outputPath)
		.option('--json', 'print replay.json')
		.action(async (run: string, flags: {cartridge: string; out: string; json?: boolean}) => replayCommand(run, flags));
	cartridge
		.command('diff <before> <after>')
		.description('the structural difference of two cartridges: prompt, tool schemas and code, contract, runtime, cases, collectors, graders (exit 1 when they differ)')
		.option('--show', 'show the changed lines')
		.option('--json', 'print JSON')
		.action(async (before: string, after: string, flags: {show?: boolean; json?: boolean}) => diffCommand(before, after, flags));
}

/** Every problem of a broken cartridge, one per line; empty for a loaded one. */
function brokenMessage(dir: string, loaded: LoadResult): string {
	return loaded.ok ? '' : `the cartridge ${dir} is broken:\n${loaded.problems.map(problem => `  ${problem}`).join('\n')}`;
}

async function describeCommand(dir: string, flags: {json?: boolean}): Promise<void> {
	const loaded = await loadCartridge(resolve(dir));
	if (!loaded.ok) throw new UsageError(brokenMessage(dir, loaded), 'cartridge');
	process.stdout.write(flags.json ? `${JSON.stringify(describeCartridge(loaded.cartridge), null, 2)}\n` : renderDescription(loaded.cartridge));
}

/** The provider the shared flags ask for, with what a cartridge run adds: a scripted run plays a response script. */
async function evalProvider(flags: EvalFlags): Promise<EvalProvider> {
	const choice = readProviderChoice(flags);
	if (choice.kind === 'scripted') {
		// A cartridge run records the response script it played, not a model label.
		if (flags.model !== undefined) throw new UsageError('--model applies only with --provider openai-compatible');
		if (!flags.responses) throw new UsageError('--provider scripted needs --responses FILE (a response script)');
		const path = resolve(flags.responses);
		const read = await readResponseScript(path);
		if (!read.ok) throw new UsageError(read.problem, 'responses');
		return {kind: 'scripted', script: read.script, digest: read.digest, path};
	}
	if (flags.responses) throw new UsageError('--responses applies only with --provider scripted');
	// The engine's own schema has the last word (a cartridge run needs a key variable).
	const parsed = ProviderConfig.safeParse({kind: 'openai-compatible', base_url: choice.base_url, model: choice.model, api_key_env: choice.api_key_env ?? '', reasoning_effort: choice.reasoning_effort});
	if (!parsed.success || parsed.data.kind !== 'openai-compatible') throw new UsageError(`invalid provider settings: ${parsed.error?.issues.map(issue => `${issue.path.join('.')}: ${issue.message}`).join('; ') ?? ''}`);
	return {kind: 'openai-compatible', config: parsed.data};
}

function numberFlag(name: string, text: string | undefined, check: (value: number) => boolean): number | null {
	if (text === undefined) return null;
	const value = Number(text);
	if (text.trim() === '' || !check(value)) throw new UsageError(`${name} got ${text}`);
	return value;
}

/** Cancels the work at the first stop signal, so the case in flight ends cleanly and is recorded (`stop-signals.ts`). */
async function cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const controller = new AbortController();
	const stopListening = listenForStop({words: cartridgeStopWords, stop: controller});
	try {
		return await work(controller.signal);
	} finally {
		stopListening();
	}
}

const cartridgeStopWords: StopWords = {
	first: 'the case in flight ends and is recorded',
	faster: 'every process of the case is killed now; the case in flight is still recorded',
	now: 'the case in flight has no record; --out keeps the cases recorded before it',
};

async function evalCommand(dir: string, flags: EvalFlags): Promise<void> {
	const maxSteps = numberFlag('--max-steps must be a positive whole number;', flags.maxSteps, value => Number.isInteger(value) && value > 0);
	const threshold = numberFlag('--threshold must be a number from 0 to 1;', flags.threshold, value => value >= 0 && value <= 1);
	if (flags.judgeModel !== undefined && !flags.judge) throw new UsageError('--judge-model applies only with --judge');
	const provider = await evalProvider(flags);
	const out = resolve(flags.out);
	// The cartridge engine is loaded when a subcommand runs it, not by `hlab cartridge describe` or a --help.
	const {evalCartridge, renderRun} = await import('../supervisor/cartridge-commands/index.js');
	const result = await cancellable(signal => evalCartridge({dir: resolve(dir), out, caseIds: flags.case === undefined ? null : [flags.case], maxSteps, threshold, judge: flags.judge ? {model: flags.judgeModel ?? null} : null, provider, signal}));
	// An interrupted evaluation is a failed run, not a usage mistake.
	if (!result.ok && result.reason === 'interrupted') return fail(result.problems.join('\n  '));
	if (!result.ok) throw new UsageError(result.problems.join('\n  '), result.reason);
	process.stdout.write(flags.json ? `${JSON.stringify(result.run, null, 2)}\n` : renderRun(result.run, result.records, out));
	process.exitCode = result.run.exit_status;
}

async function replayCommand(run: string, flags: {cartridge: string; out: string; json?: boolean}): Promise<void> {
	const out = resolve(flags.out);
	const {renderReplay, renderRun, replayRun} = await import('../supervisor/cartridge-commands/index.js');
	const result = await cancellable(signal => replayRun({run: resolve(run), cartridge: resolve(flags.cartridge), out, signal}));
	// A recording that cannot be read is a failed replay, not a usage mistake.
	if (!result.ok && (result.reason === 'malformed_record' || result.reason === 'interrupted')) return fail(result.problems.join('\n  '));
	if (!result.ok) throw new UsageError(result.problems.join('\n  '), result.reason);
	process.stdout.write(flags.json ? `${JSON.stringify(result.report, null, 2)}\n` : `${renderReplay(result.report)}${renderRun(result.evaluation.run, result.evaluation.records, out)}`);
	process.exitCode = result.evaluation.run.exit_status;
}

async function diffCommand(before: string, after: string, flags: {show?: boolean; json?: boolean}): Promise<void> {
	const [a, b] = await Promise.all([loadCartridge(resolve(before)), loadCartridge(resolve(after))]);
	if (!a.ok || !b.ok) throw new UsageError([brokenMessage(before, a), brokenMessage(after, b)].filter(Boolean).join('\n'), 'cartridge');
	const {renderDiff} = await import('../supervisor/cartridge-commands/index.js');
	const diff = await diffCartridges(a.cartridge, b.cartridge, {show: flags.show ?? false});
	process.stdout.write(flags.json ? `${JSON.stringify(diff, null, 2)}\n` : renderDiff(diff));
	process.exitCode = diff.changes.length === 0 ? okExit : failedExit;
}
