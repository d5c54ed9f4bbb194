import {existsSync} from 'node:fs';
import type {AttemptOptions} from '../../supervisor/attempt/index.js';
import {UsageError} from '../../supervisor/input-error.js';
import {failedExit, okExit} from '../exit-codes.js';
import {durationText, parseBytes, positiveDuration, positiveInteger} from '../parse-units.js';
import {absolutePath, outputPath} from '../path-option.js';
import {outOf} from './out-flag.js';
import {attemptStopWords, listenForStop} from '../stop-signals.js';
import type {EvalMode} from './eval-mode.js';
import {addOtlpFlags, traceOptionsOf, type OtlpFlags} from '../otlp-flags.js';
import {printResult} from './print-result.js';

/** The flags of one attempt, as --plan and --resume take them. */
export interface AttemptFlags extends OtlpFlags {
	out?: string;
	artifacts?: string;
	candidate?: string;
	candidateHost?: string;
	candidateCartridge?: string;
	agent?: string;
	side?: string;
	keepWorkdirs?: boolean;
	threads?: string;
	config?: string;
	calibrate?: boolean;
	json?: boolean;
}

interface RunFlags extends AttemptFlags {
	plan: string;
	queue?: string;
	redisPasswordFile?: string;
	queueSecretFile?: string;
	insecureQueue?: boolean;
	nodeLock: string;
	nodeWait: string;
	evidenceLimit: string;
}

/** `hlab eval --plan`: one attempt of a frozen plan, with the baseline or a candidate in the candidate slot. */
export const runMode: EvalMode = {
	name: 'plan',
	addTrigger: command => command.option('--plan <plan.json>', 'run one attempt of this plan', absolutePath),
	own: {
		modes: ['plan', 'resume'], why: 'is an option of an attempt',
		add: command => addOtlpFlags(command)
			.option('--artifacts <dir>', 'alias of --out: the attempt\'s new evidence folder', outputPath)
			.option('--candidate <file.ts>', 'single-file candidate to load into the candidate slot', absolutePath)
			.option('--candidate-host <exe>', 'host executable (e.g. a build-host launcher) that runs every task as `EXE host-worker` in its own supervised process group', absolutePath)
			.option('--candidate-cartridge <dir>', 'with a cartridge plan: a changed cartridge whose harness runs the plan\'s cases (its cases, collectors and graders must be the plan\'s)', absolutePath)
			.option('--side <side>', 'record the attempt as the baseline or the candidate side (default: candidate with --candidate/--candidate-host/--agent, else baseline)')
			.option('--calibrate', 'run the plan\'s baseline twice (DIR/a, DIR/b) and write the spread between the identical runs to DIR/calibration.json: the noise a min_effect must exceed')
			.option('--keep-workdirs', 'keep task workspaces in the evidence')
			.option('--threads <n>', 'worker threads the in-process tasks share (default: the available cores, at most the frozen concurrency); not part of the plan')
			.option('--node-lock <duration>', 'with --queue: how long a queue node may go without renewing its lock on a task before the task fails as worker_lost', '30s')
			.option('--node-wait <duration>', 'with --queue: how long to wait for a first queue node to take a task; with none by then the attempt ends as interrupted', '10m')
			.option('--evidence-limit <bytes>', 'with --queue: the largest exported evidence one task may send back; a larger one fails the task (evidence_limit)', '64MiB')
			.option('--queue-secret-file <file>', 'with --queue: the secret this coordinator and its queue nodes share (or HLAB_QUEUE_SECRET), which seals every answer; never on the command line', absolutePath)
			.option('--insecure-queue', 'with --queue: run without a queue secret; answers are not authenticated and the attempt records queue_auth none'),
	},
	run: async (flags: RunFlags) => run(flags),
};

async function run(flags: RunFlags): Promise<number> {
	const artifacts = checkedArtifacts(flags);
	const side = sideOf(flags);
	const interrupt = new AbortController();
	const threads = flags.threads === undefined ? null : positiveInteger(flags.threads, '--threads');
	const traces = traceOptionsOf(flags);
	const stopListening = listenForStop({words: attemptStopWords, stop: interrupt});
	try {
		const remotePlacement = flags.queue === undefined || flags.calibrate === true ? undefined : await queueOf(flags, interrupt);
		if (flags.calibrate === true) {
			const {calibrate} = await import('./calibrate.js');
			const others = (['candidate', 'candidateHost', 'candidateCartridge', 'agent', 'side', 'queue', 'otlp'] as const).filter(name => flags[name] !== undefined).map(flagName);
			return await calibrate({plan: flags.plan, artifacts, json: flags.json, others}, {signal: interrupt.signal, threads, keepWorkdirs: flags.keepWorkdirs === true, configPath: flags.config ?? null});
		}
		// The attempt's engine is loaded by the mode that runs, not by every `hlab eval` (bench/README.md, the test suite).
		const {runAttempt, reportSummary} = await import('../../supervisor/attempt/index.js');
		const {dir, report} = await runAttempt({
			planPath: flags.plan, artifacts, candidatePath: flags.candidate ?? null, candidateHost: flags.candidateHost ?? null, candidateCartridge: flags.candidateCartridge ?? null, agentSpec: flags.agent ?? null, side,
			keepWorkdirs: flags.keepWorkdirs === true, configPath: flags.config ?? null, signal: interrupt.signal, quiet: flags.json === true,
			threads, traces,
			...(remotePlacement === undefined ? {} : {remotePlacement}),
		});
		printResult(flags, reportSummary(dir, report), {evidence: dir, report: `${dir}/report.json`, passed: report.passed, completion: report.completion, totals: report.totals, admission: report.admission});
		return report.passed ? okExit : failedExit;
	} finally {
		stopListening();
	}
}

/** The evidence directory, once the candidate flags agree with each other. */
function checkedArtifacts(flags: RunFlags): string {
	const artifacts = outOf(flags, '--artifacts', flags.artifacts);
	if (!artifacts) throw new UsageError('--plan needs --out DIR (a new evidence directory)');
	if (flags.candidate !== undefined && flags.candidateHost !== undefined) throw new UsageError('give at most one of --candidate and --candidate-host');
	const candidates = [flags.candidate, flags.candidateHost, flags.candidateCartridge].filter(given => given !== undefined);
	if (flags.agent !== undefined && candidates.length > 0) throw new UsageError('give at most one of --agent, --candidate, --candidate-host and --candidate-cartridge');
	if (flags.threads !== undefined && flags.agent !== undefined) throw new UsageError('--threads sizes the in-process worker threads; with --agent every task is a process tree of its own');
	if (flags.agent !== undefined && !existsSync(flags.agent)) throw new UsageError(`--agent ${flags.agent} does not exist`);
	if (flags.threads !== undefined && flags.candidateHost !== undefined) throw new UsageError('--threads sizes the in-process worker threads; with --candidate-host every task is a process of its own');
	if (flags.candidateHost !== undefined && !existsSync(flags.candidateHost)) throw new UsageError(`--candidate-host ${flags.candidateHost} does not exist`);
	return artifacts;
}

const flagName = (name: string): string => `--${name.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`)}`;

/** The side --side names, checked; undefined: the attempt's default. */
export function sideOf(flags: AttemptFlags): 'baseline' | 'candidate' | undefined {
	if (flags.side === undefined) return undefined;
	if (flags.side !== 'baseline' && flags.side !== 'candidate') throw new UsageError(`--side must be baseline or candidate, got '${flags.side}'`);
	return flags.side;
}

/** The queue placement, once Redis answers (a one-line error otherwise); a Redis lost mid-attempt interrupts it. */
async function queueOf(flags: RunFlags, interrupt: AbortController): Promise<AttemptOptions['remotePlacement']> {
	if (flags.candidate !== undefined || flags.candidateHost !== undefined || flags.candidateCartridge !== undefined || flags.agent !== undefined) throw new UsageError('--queue runs the plan\'s own harness on queue nodes; --candidate, --candidate-host, --candidate-cartridge and --agent are not carried to queue nodes yet');
	if (flags.threads !== undefined) throw new UsageError('--threads sizes local worker threads; with --queue each queue node sets its own --parallel-tasks and --threads');
	const lockMs = positiveDuration(flags.nodeLock, '--node-lock');
	const nodeWaitMs = positiveDuration(flags.nodeWait, '--node-wait');
	const evidenceLimitBytes = bytesFlag(flags.evidenceLimit, '--evidence-limit');
	// Loaded only here: the queue's Redis client and job library cost every other attempt a fifth of a second of start-up.
	const {openRedisLink, queuePlacement, takeQueueCredentials} = await import('../../supervisor/queue/index.js');
	const {secret, redisPassword} = takeQueueCredentials({secretFile: flags.queueSecretFile ?? null, passwordFile: flags.redisPasswordFile ?? null, insecure: flags.insecureQueue === true, needsSecret: true});
	const link = await openRedisLink(flags.queue!, redisPassword);
	if (secret === null) process.stderr.write('hlab: warning: --insecure-queue: the queue nodes\' answers are not authenticated; anyone who reaches this Redis can write a verdict (queue_auth none)\n');
	return queuePlacement(link, {
		lockMs, evidenceLimitBytes, keepWorkspace: flags.keepWorkdirs === true, secret, nodeWait: {ms: nodeWaitMs, text: durationText(nodeWaitMs)},
		onLost: why => {
			process.stderr.write(`hlab: ${why}; the attempt ends as interrupted\n`);
			interrupt.abort();
		},
		say: line => void process.stderr.write(`hlab: ${line}\n`),
	});
}

function bytesFlag(text: string, flag: string): number {
	try {
		return parseBytes(text);
	} catch (error) {
		throw new UsageError(`${flag}: ${(error as Error).message}`);
	}
}
