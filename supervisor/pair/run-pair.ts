import {existsSync} from 'node:fs';
import {mkdir, readFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {z} from 'zod';
import {readPlanFile} from '../attempt/index.js';
import {runInGroup} from '../../process/index.js';
import {PairFile} from './pair-file.js';
import {PairRecord, pairSchema, type SideName, type SideRecord} from './pair-record.js';
import {runSide} from './run-side.js';
import {copyInput, snapshotExecutable, snapshotSourceArchive} from './snapshot-inputs.js';
import {emptyTasks} from './sync-ledger.js';
import {createNewDir} from '../evidence/evidence-dir.js';
import {writeBytes, writeJson} from '../../files/write-json.js';
import {InputError} from '../input-error.js';

export class PairInputError extends InputError {
	constructor(readonly reason: 'output_exists' | 'bad_input', message: string) {
		super(message);
	}
}

export interface PairOptions {
	plan: string;
	baseline: string;
	sourceBaseline: string;
	/** Exactly one of `candidateFile` and `candidateHost`; a host also needs `sourceCandidate`. */
	candidateFile?: string;
	candidateHost?: string;
	sourceCandidate?: string;
	output: string;
	/** The predeclared wall-clock limit of each side, in seconds. */
	timeoutS: number;
	/** Aborting ends the running side's process group and records the interruption (reason: the signal name). */
	signal?: AbortSignal;
	/** Aborted at a second interrupt: the running side is sent SIGTERM again and moves to its faster stop. */
	urge?: AbortSignal;
	pollMs?: number;
	/** Test-only: false leaves pair.json without the sides' ledgers (the broken variant the recovery check must catch). */
	syncLedger?: boolean;
}

const DecisionView = z.object({
	decision: z.enum(['accept', 'reject', 'revise', 'insufficient']),
	checks: z.array(z.object({rule: z.string(), satisfied: z.boolean(), message: z.string()}).loose()).default([]),
}).loose();

/** Why the compare decided as it did: the checks that fail (all of them, for an accept), so `pair` names its reasons. */
function decisionReasons(view: z.infer<typeof DecisionView>): string {
	const failing = view.checks.filter(check => !check.satisfied);
	const named = (view.decision === 'accept' ? view.checks : failing).map(check => `${check.rule}: ${check.message}`);
	return named.length === 0 ? '' : `: ${named.join('; ')}`;
}

/**
 * Runs a baseline and a candidate one after the other, each as `BASELINE eval` (so the same supervisor runs
 * both), in its own process group under the wall-clock limit, and keeps pair.json current throughout.
 * It never retries, never changes budgets or configuration, copies no credentials and removes nothing it wrote.
 */
export async function runPair(options: PairOptions): Promise<PairRecord> {
	const out = resolve(options.output);
	validate(options);
	if (existsSync(out)) throw new PairInputError('output_exists', `${out} already exists; each pair needs a new output folder`);
	let plan;
	try {
		plan = (await readPlanFile(options.plan)).plan;
	} catch (error) {
		throw new PairInputError('bad_input', (error as Error).message);
	}
	if (!await createNewDir(out)) throw new PairInputError('output_exists', `${out} already exists; each pair needs a new output folder`);
	const host = options.candidateHost !== undefined;
	// Everything the pair depends on is copied and digested before either side is admitted.
	const planCopy = await copyInput(out, options.plan, join('inputs', 'plan.json'));
	const baseline = await snapshotExecutable(out, options.baseline, 'baseline');
	const sourceBaseline = await snapshotSourceArchive(out, options.sourceBaseline, join('inputs', 'baseline-source.tar'), baseline);
	const candidateHost = host ? await snapshotExecutable(out, options.candidateHost!, 'candidate') : null;
	const sourceCandidate = options.sourceCandidate !== undefined
		? await snapshotSourceArchive(out, options.sourceCandidate, join('inputs', 'candidate-source.tar'), candidateHost ?? baseline)
		: null;
	const candidateFile = options.candidateFile !== undefined ? await copyInput(out, options.candidateFile, join('inputs', 'candidate.ts')) : null;
	const planPath = join(out, planCopy.copy);
	const baselineExe = resolve(options.baseline);
	const sideArgv = (side: SideName): string[] => {
		const argv = [baselineExe, 'eval', '--plan', planPath, '--artifacts', join(out, side)];
		// With a host candidate both sides are supervised hosts, so both timings come from the same supervision.
		// The side is named explicitly: a host run would otherwise be recorded as the candidate side.
		if (host) return [...argv, '--side', side, '--candidate-host', side === 'baseline' ? baselineExe : resolve(options.candidateHost!)];
		return side === 'baseline' ? argv : [...argv, '--candidate', join(out, candidateFile!.copy)];
	};
	const side = (name: SideName): SideRecord => ({
		state: 'pending', argv: sideArgv(name), artifacts: name, process: null, stdout: null, stderr: null,
		exit_code: null, signal: null, failure: null, wall_ms: null, report: null, comparable: false, problems: [], leaks: null,
	});
	const now = new Date().toISOString();
	const file = new PairFile(join(out, 'pair.json'), {
		schema: pairSchema,
		created_at: now,
		updated_at: now,
		status: 'running',
		mode: host ? 'candidate-host' : 'candidate-file',
		timeout_s: options.timeoutS,
		plan: {...planCopy, plan_digest: plan.plan_digest, task_ids: plan.task_ids},
		inputs: {baseline, source_baseline: sourceBaseline, candidate_host: candidateHost, source_candidate: sourceCandidate, candidate_file: candidateFile},
		sides: {baseline: side('baseline'), candidate: side('candidate')},
		tasks: emptyTasks(plan.task_ids),
		comparison: null,
		interruption: null,
		problems: [],
	});
	await file.update(() => undefined);

	const refusals = [
		...(baseline.build?.problems ?? []).map(problem => `baseline build: ${problem}`),
		...(candidateHost?.build?.problems ?? []).map(problem => `candidate build: ${problem}`),
		...sourceBaseline.problems.map(problem => `baseline source archive: ${problem}`),
		...(sourceCandidate?.problems ?? []).map(problem => `candidate source archive: ${problem}`),
	];
	if (refusals.length > 0) {
		await file.update(record => {
			record.status = 'refused';
			record.problems.push(...refusals);
			for (const name of ['baseline', 'candidate'] as const) record.sides[name].state = 'refused';
			record.comparison = {argv: null, process: null, exit_code: null, decision_path: null, decision: 'reject', reason: `the inputs do not match their records: ${refusals.join('; ')}`};
		});
		return file.record;
	}

	const signal = options.signal ?? new AbortController().signal;
	for (const name of ['baseline', 'candidate'] as const) {
		if (signal.aborted) break;
		await runSide({side: name, argv: sideArgv(name), pairDir: out, deadlineMs: options.timeoutS * 1000, signal, urge: options.urge, planDigest: plan.plan_digest, taskIds: plan.task_ids, pollMs: options.pollMs, syncLedger: options.syncLedger ?? true}, file);
	}
	if (signal.aborted) {
		await file.update(record => {
			record.status = 'interrupted';
			record.interruption = {signal: typeof signal.reason === 'string' ? signal.reason : 'abort', at: new Date().toISOString()};
			for (const name of ['baseline', 'candidate'] as const) if (record.sides[name].state === 'pending') record.sides[name].state = 'not_started';
			record.comparison = {argv: null, process: null, exit_code: null, decision_path: null, decision: 'reject', reason: 'the pair was interrupted; an interrupted pair is never accepted'};
		});
		return file.record;
	}
	await compareSides(file, out, baselineExe, options.timeoutS * 1000);
	await file.update(record => (record.status = 'finished'));
	return file.record;
}

function validate(options: PairOptions): void {
	if ((options.candidateFile === undefined) === (options.candidateHost === undefined)) throw new PairInputError('bad_input', 'give exactly one of --candidate and --candidate-host');
	if (options.candidateHost !== undefined && options.sourceCandidate === undefined) throw new PairInputError('bad_input', '--candidate-host needs --source-candidate');
	if (!(options.timeoutS > 0)) throw new PairInputError('bad_input', '--timeout must be a positive number of seconds');
	const files: Array<[string, string | undefined]> = [['--plan', options.plan], ['--baseline', options.baseline], ['--source-baseline', options.sourceBaseline], ['--candidate', options.candidateFile], ['--candidate-host', options.candidateHost], ['--source-candidate', options.sourceCandidate]];
	for (const [flag, path] of files) if (path !== undefined && !existsSync(path)) throw new PairInputError('bad_input', `${flag} ${path} does not exist`);
}

/** Complete reports are compared by the baseline executable's own compare; anything else is a rejection. */
async function compareSides(file: PairFile, out: string, baselineExe: string, deadlineMs: number): Promise<void> {
	const {baseline, candidate} = file.record.sides;
	if (!baseline.comparable || !candidate.comparable) {
		const why = [...baseline.problems, ...candidate.problems].join('; ');
		await file.update(record => (record.comparison = {argv: null, process: null, exit_code: null, decision_path: null, decision: 'reject', reason: `not compared: ${why}`}));
		return;
	}
	const argv = [baselineExe, 'eval', '--compare', `${join(out, baseline.report!.path)},${join(out, candidate.report!.path)}`, '--decision-output', join(out, 'decision.json')];
	const run = await runInGroup({argv, cwd: out, deadlineMs, stdoutLimit: sideOutputLimitCompare, stderrLimit: sideOutputLimitCompare});
	await mkdir(join(out, 'compare.process'), {recursive: true});
	// pair.json cites these records, so they are on disk before it does.
	await writeBytes(join(out, 'compare.process', 'stdout.log'), run.stdout ?? Buffer.alloc(0), {durable: true});
	await writeBytes(join(out, 'compare.process', 'stderr.log'), run.stderr ?? Buffer.alloc(0), {durable: true});
	await writeJson(join(out, 'compare.process', 'process.json'), run.record, {durable: true});
	let decision: 'accept' | 'reject' | 'revise' | 'insufficient' = 'reject';
	let reason: string;
	try {
		const view = DecisionView.parse(JSON.parse(await readFile(join(out, 'decision.json'), 'utf8')));
		decision = view.decision;
		reason = `the baseline executable's compare decided ${decision}${decisionReasons(view)}`;
	} catch (error) {
		reason = `the baseline executable's compare wrote no readable decision (${run.record.failure_message ?? `exit ${run.record.exit_code}`}): ${(error as Error).message.split('\n')[0]}`;
	}
	// A decision from a compare that did not end cleanly is not taken.
	if (run.record.failure !== null) {
		decision = 'reject';
		reason = `the compare process did not end by itself: ${run.record.failure_message}`;
	}
	await file.update(record => (record.comparison = {argv, process: 'compare.process/process.json', exit_code: run.record.exit_code, decision_path: existsSync(join(out, 'decision.json')) ? 'decision.json' : null, decision, reason}));
}

const sideOutputLimitCompare = 8 * 1024 * 1024;
