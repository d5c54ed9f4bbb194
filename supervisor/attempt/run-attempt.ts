import {randomUUID} from 'node:crypto';
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {cpus} from 'node:os';
import {join, resolve} from 'node:path';
import {pino, type Logger} from 'pino';
import type {CandidateSnapshot} from '../../engine/candidate/snapshot.js';
import type {FailureReason} from '../../engine/outcome.js';
import {resolveProvider, type ResolvedProvider} from '../../engine/provider-config.js';
import type {Grade} from '../../tasks/index.js';
import {admit, type AdmissionResult} from '../plan/admission.js';
import {executableDigest} from './executable-digest.js';
import {packageFingerprints} from '../plan/fingerprints.js';
import {hlabVersion} from '../plan/hlab-version.js';
import {installRoot} from '../../files/install-root.js';
import type {Plan} from '../plan/plan-schema.js';
import {readStat} from '../../process/proc-table.js';
import {type AttemptTask, builtinAttemptTask} from './attempt-task.js';
import {AttemptRecord, attemptSchema} from './attempt-record.js';
import {buildDigest, gitHead} from '../evidence/build-metadata.js';
import {prepareCandidate} from './candidate-evidence.js';
import {createEvidenceDir, taskDirName} from '../evidence/evidence-dir.js';
import {exportTaskEvidence, taskPaths, type TaskPaths} from './export-evidence.js';
import {killMarked} from '../../process/kill-marked.js';
import {Ledger} from './ledger.js';
import {readPlanFile} from './read-plan.js';
import {Progress} from './progress.js';
import {Report, reportSchema, type TaskResult} from './report-schema.js';
import {inProcessExecutor, type TaskExecutor} from './task-execution.js';
import {hostExecutor} from './host-execution.js';
import {closeHostSession, HostSessionError, type HostAttemptRecord, hostDirOf, openHostSession, type HostSession} from '../host/index.js';
import {totalsOf} from './totals.js';
import {startScriptedService} from './scripted-service.js';
import {controllerAttemptTasks} from './controller-tasks.js';
import {InputError} from '../input-error.js';

export interface AttemptOptions {
	planPath: string;
	artifacts: string;
	candidatePath: string | null;
	/** A host executable that runs every task as `EXE host-worker` (exclusive with `candidatePath`). */
	candidateHost?: string | null;
	/** The side this attempt is recorded as; by default `candidate` when a candidate or host is given. */
	side?: 'baseline' | 'candidate';
	keepWorkdirs: boolean;
	configPath: string | null;
	cwd?: string;
	/** Interrupts the attempt: running tasks are ended and recorded, the report is marked interrupted. */
	signal?: AbortSignal;
	/** No progress output (for --json). */
	quiet?: boolean;
}

export interface AttemptOutcome {
	dir: string;
	report: Report;
}

export class HostOptionError extends InputError {
	constructor(readonly reason: 'usage' | 'evidence_exists', message: string) {
		super(message);
	}
}

/** Runs one attempt of a plan into a new evidence directory and returns its report. */
export async function runAttempt(options: AttemptOptions): Promise<AttemptOutcome> {
	const candidateHost = options.candidateHost ?? null;
	if (candidateHost !== null && options.candidatePath !== null) throw new HostOptionError('usage', 'give at most one of --candidate and --candidate-host');
	// The host record folder sits beside the evidence directory; both must be new before anything is written.
	if (candidateHost !== null && existsSync(hostDirOf(options.artifacts))) throw new HostOptionError('evidence_exists', `${hostDirOf(options.artifacts)} already exists; each host attempt needs a new one`);
	const {bytes, plan} = await readPlanFile(options.planPath);
	const dir = await createEvidenceDir(options.artifacts);
	const startedAt = new Date();
	const t0 = performance.now();
	await writeFile(join(dir, 'plan.json'), bytes);
	const attemptId = randomUUID();
	const markerKey = `HLAB_ATTEMPT_${attemptId.replaceAll('-', '')}`;
	// Every thread and process started from here inherits the marker, so a later recovery can find survivors.
	process.env[markerKey] = '1';
	const log = pino({base: {attempt_id: attemptId}}, pino.destination({dest: join(dir, 'log.jsonl'), sync: true}));
	const side = options.side ?? (options.candidatePath === null && candidateHost === null ? 'baseline' : 'candidate');
	const signal = options.signal ?? new AbortController().signal;
	const ledger = new Ledger(join(dir, 'ledger.jsonl'), attemptId);
	const problems: string[] = [];
	log.info({plan: resolve(options.planPath), side, plan_digest: plan.plan_digest}, 'attempt started');

	try {
		const admission = await admit(plan, {configPath: options.configPath, cwd: options.cwd});
		log.info({admitted: admission.admitted, differences: admission.differences}, 'admission');
		let candidate: CandidateSnapshot | null = null;
		let blocked: {reason: FailureReason; message: string} | null = admission.admitted
			? null
			: {reason: 'admission', message: `admission rejected (${admission.differences.length} difference${admission.differences.length > 1 ? 's' : ''}, listed in the report's admission)`};
		// The provider starts while the host and the candidate are measured; if they block the attempt it is closed unused.
		const starting = admission.admitted ? startServices(plan, dir).then(value => ({value}), (error: Error) => ({error})) : null;
		const host = candidateHost === null ? null : await openHostSession({artifacts: dir, exe: resolve(options.cwd ?? process.cwd(), candidateHost), planDigest: plan.plan_digest, taskIds: plan.task_ids}).catch((error: Error) => {
			if (error instanceof HostSessionError && error.reason === 'host_unreadable') return error;
			throw error;
		});
		if (host !== null) log.info({host: host instanceof HostSessionError ? host.message : host.identity}, 'host measured');
		if (blocked === null && host instanceof HostSessionError) blocked = {reason: 'admission', message: host.message};
		if (blocked === null && host !== null && !(host instanceof HostSessionError) && host.identity.problems.length > 0) {
			blocked = {reason: 'admission', message: `the host executable ${host.identity.launched} does not match its build record: ${host.identity.problems.join('; ')}`};
		}
		const session = host instanceof HostSessionError ? null : host;
		if (blocked === null && options.candidatePath !== null) {
			const prepared = await prepareCandidate(resolve(options.cwd ?? process.cwd(), options.candidatePath), dir);
			if (prepared.ok) candidate = prepared.snapshot;
			else blocked = {reason: 'init', message: prepared.message};
		}
		const modules = plan.composition.modules;
		if (blocked === null && candidate !== null && !modules.includes('candidate')) {
			blocked = {reason: 'init', message: `loaded-module check failed: the composition [${modules.join(', ')}] has no candidate slot, so the candidate was not loaded (there is no fallback)`};
		}
		if (blocked === null && plan.provider.kind === 'openai-compatible' && plan.provider.api_key_env !== null && !process.env[plan.provider.api_key_env]) {
			blocked = {reason: 'auth', message: `the API key variable ${plan.provider.api_key_env} is not set`};
		}
		const executor = session === null ? inProcessExecutor(candidate) : hostExecutor(session);
		// The threads load the engine while the provider starts and the attempt record is measured.
		const warming = blocked === null ? executor.start(Math.min(plan.policy.concurrency, plan.task_ids.length)).then(() => null, (error: Error) => error) : null;
		const started = await starting;
		let services: Services | null = null;
		if (started !== null && 'error' in started) blocked ??= {reason: 'init', message: `the provider could not start: ${started.error.message}`};
		else if (started !== null && blocked !== null) await started.value.close();
		else if (started !== null) services = started.value;
		try {
			await writeAttemptRecord(dir, {
				attemptId, markerKey, side, plan, candidate, keepWorkdirs: options.keepWorkdirs,
				host: session === null ? null : hostRef(session),
				serviceBindings: services?.bindings ?? {},
				loadedModules: modules.map(slot => ({
					slot,
					// In a host attempt every slot is filled by the host's own build, not by this supervisor's code.
					implementation: session !== null ? `host ${session.identity.digest}` : slot === 'candidate' ? (candidate === null ? null : `candidate ${candidate.code_digest}`) : 'builtin',
				})),
			});
			const tasks = attemptTasks(plan, admission, dir, signal);
			const warmError = await warming;
			if (warmError !== null) throw warmError;
			const results = blocked !== null || services === null
				? await failAll(plan, dir, ledger, blocked ?? {reason: 'init', message: 'the provider did not start'})
				: await runTasks({plan, dir, tasks, executor, provider: services.provider, ledger, log, signal, keep: options.keepWorkdirs || plan.controller !== null, quiet: options.quiet ?? false, problems});
			if (session !== null) problems.push(...await closeHost(session, log));
			const interrupted = signal.aborted;
			const report = buildReport({plan, attemptId, side, admission, candidate, host: session === null ? null : hostRef(session), timing: candidateHost === null ? executor.timing : 'supervised-host', results, problems, interrupted, startedAt, t0});
			await writeFile(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`, {flag: 'wx'});
			log.info({passed: report.passed, totals: report.totals}, 'attempt finished');
			return {dir, report};
		} finally {
			await executor.close();
			await services?.close();
		}
	} finally {
		const survivors = await killMarked(`${markerKey}=1`);
		if (survivors.length > 0) log.warn({pids: survivors}, 'processes of the attempt survived their task and were killed');
		delete process.env[markerKey];
		log.flush();
	}
}

function hostRef(session: HostSession): Report['host'] {
	const {launched, path, kind, digest} = session.identity;
	return {launched, path, kind, digest};
}

/** Re-measures the host and the supervisor after the last task; a change during the attempt fails it. */
async function closeHost(session: HostSession, log: Logger): Promise<string[]> {
	let closed: NonNullable<HostAttemptRecord['closed']>;
	try {
		closed = (await closeHostSession(session)).closed!;
	} catch (error) {
		return [`the host session could not be closed, so the binary was not re-measured: ${(error as Error).message}`];
	}
	log.info({closed}, 'host session closed');
	const problems: string[] = [];
	if (!closed.binary_unchanged) problems.push(`the host executable ${session.identity.launched} changed during the attempt (${session.identity.digest} at the start, ${closed.binary_digest} at the end)`);
	if (!closed.supervisor_unchanged) problems.push(`the supervisor's own build changed during the attempt (now ${closed.supervisor_build_digest})`);
	return problems;
}

interface Services {
	provider: ResolvedProvider;
	bindings: Record<string, string>;
	close(): Promise<void>;
}

async function startServices(plan: Plan, dir: string): Promise<Services> {
	if (plan.provider.kind === 'scripted') {
		const server = await startScriptedService(dir);
		return {provider: resolveProvider({kind: 'scripted'}, server.url), bindings: {scripted_provider: server.url}, close: () => server.close()};
	}
	const provider = resolveProvider({kind: 'openai-compatible', base_url: plan.provider.base_url, model: plan.provider.model, api_key_env: plan.provider.api_key_env ?? '', reasoning_effort: plan.provider.reasoning_effort});
	return {provider: {...provider, api_key_env: plan.provider.api_key_env}, bindings: {provider: plan.provider.base_url}, close: async () => undefined};
}

function attemptTasks(plan: Plan, admission: AdmissionResult, dir: string, signal: AbortSignal): Array<AttemptTask | null> {
	if (plan.controller !== null) return controllerAttemptTasks(plan, dir, signal);
	return admission.tasks.map(task => (task === null ? null : builtinAttemptTask(task)));
}

interface AttemptRecordInput {
	attemptId: string;
	markerKey: string;
	side: 'baseline' | 'candidate';
	plan: Plan;
	candidate: CandidateSnapshot | null;
	host: Report['host'];
	keepWorkdirs: boolean;
	serviceBindings: Record<string, string>;
	loadedModules: Array<{slot: string; implementation: string | null}>;
}

async function writeAttemptRecord(dir: string, input: AttemptRecordInput): Promise<void> {
	// Independent measurements: hash them side by side.
	const [build, nodeDigest, head, packages] = await Promise.all([buildDigest(), executableDigest(process.execPath), gitHead(), packageFingerprints(installRoot)]);
	const record: AttemptRecord = {
		schema: attemptSchema,
		attempt_id: input.attemptId,
		process_marker: `${input.markerKey}=1`,
		side: input.side,
		plan_digest: input.plan.plan_digest,
		started_at: new Date().toISOString(),
		supervisor: {pid: process.pid, start_time: readStat(process.pid)?.startTime ?? null, argv: process.argv},
		executable: {
			node_path: process.execPath,
			node_digest: nodeDigest,
			hlab_version: hlabVersion,
			build_digest: build.digest,
			build_files: build.files,
			git_head: head,
		},
		node: {version: process.version, platform: process.platform, arch: process.arch, cpus: cpus().length},
		packages,
		candidate: input.candidate === null ? null : candidateIdentity(input.candidate),
		host: input.host,
		service_bindings: input.serviceBindings,
		loaded_modules: input.loadedModules,
		concurrency: input.plan.policy.concurrency,
		keep_workdirs: input.keepWorkdirs,
	};
	await writeFile(join(dir, 'attempt.json'), `${JSON.stringify(AttemptRecord.parse(record), null, 2)}\n`);
}

function candidateIdentity(candidate: CandidateSnapshot): Report['candidate'] {
	return {source_path: candidate.source_path, source_digest: candidate.source_digest, code_digest: candidate.code_digest, sdk_digest: candidate.sdk_digest};
}

/** A task that never ran: failed with the attempt-wide reason, its record still written. */
function failedResult(index: number, taskId: string, reason: FailureReason, message: string): TaskResult {
	return {index, task_id: taskId, status: 'failed', reason, message, grade: null, outcome: null, usage: null, wall_ms: null, evidence: {}};
}

async function failAll(plan: Plan, dir: string, ledger: Ledger, why: {reason: FailureReason; message: string}): Promise<TaskResult[]> {
	const results: TaskResult[] = [];
	for (const [index, id] of plan.task_ids.entries()) {
		const relDir = taskDirName(index, id, plan.task_ids.length);
		await mkdir(join(dir, relDir), {recursive: true});
		const result = {...failedResult(index, id, why.reason, why.message), evidence: {result: `${relDir}/result.json`}};
		await writeFile(join(dir, relDir, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
		await ledger.append(result);
		results.push(result);
	}
	return results;
}

interface RunTasksInput {
	plan: Plan;
	dir: string;
	tasks: Array<AttemptTask | null>;
	executor: TaskExecutor;
	provider: ResolvedProvider;
	ledger: Ledger;
	log: Logger;
	signal: AbortSignal;
	keep: boolean;
	quiet: boolean;
	problems: string[];
}

/** Runs the denominator at the frozen concurrency; results are placed by frozen index whatever the completion order. */
async function runTasks(input: RunTasksInput): Promise<TaskResult[]> {
	const {plan} = input;
	const concurrency = plan.policy.concurrency;
	const results: Array<TaskResult | undefined> = new Array(plan.task_ids.length);
	const progress = new Progress(plan.task_ids.length, process.stderr, input.quiet);
	const lanes = Math.min(concurrency, plan.task_ids.length);
	let next = 0;
	const lane = async (): Promise<void> => {
		while (!input.signal.aborted && next < plan.task_ids.length) {
			const index = next++;
			const started = {value: false};
			const result = await runOneTask(input, index, () => {
				started.value = true;
				progress.started();
			});
			results[index] = result;
			progress.finished(result, started.value);
		}
	};
	try {
		await Promise.all(Array.from({length: lanes}, lane));
	} finally {
		progress.end();
	}
	// Tasks an interruption kept from starting are failures of the fixed denominator, never dropped.
	return plan.task_ids.map((id, index) => results[index] ?? failedResult(index, id, 'unfinished', 'the attempt was interrupted before this task started'));
}

async function runOneTask(input: RunTasksInput, index: number, onStart: () => void): Promise<TaskResult> {
	const id = input.plan.task_ids[index]!;
	const paths = taskPaths(input.dir, taskDirName(index, id, input.plan.task_ids.length));
	const log = input.log.child({task: id, index});
	let result = await executeTask(input, index, id, paths, onStart, log);
	try {
		result = exportTaskEvidence(paths, result, input.keep);
	} catch (error) {
		const message = `evidence export failed, runtime state kept at ${paths.runtime}: ${(error as Error).message}`;
		input.problems.push(`task ${id}: ${message}`);
		log.error({err: error}, 'export failed');
		result = {...result, status: 'failed', reason: 'export', message};
	}
	await input.ledger.append(result);
	log.info({status: result.status, reason: result.reason, wall_ms: result.wall_ms}, 'task recorded');
	return result;
}

async function executeTask(input: RunTasksInput, index: number, id: string, paths: TaskPaths, onStart: () => void, log: Logger): Promise<TaskResult> {
	const {plan} = input;
	const base = {index, task_id: id, evidence: {runtime_locations: `${paths.relDir}/runtime-locations.json`}};
	const fail = (reason: FailureReason, message: string, extra: Partial<TaskResult> = {}): TaskResult => ({
		...failedResult(index, id, reason, message), ...base, ...extra,
	});
	// A few small files in the evidence directory: synchronous calls cost less than a trip through the thread pool.
	mkdirSync(paths.dir, {recursive: true});
	for (const folder of [paths.runtime, paths.state, paths.session, paths.workspace]) mkdirSync(folder);
	// Each task gets its own copy of the configuration, taken before its setup can touch anything.
	writeFileSync(join(paths.session, 'configuration.json'), `${JSON.stringify(plan.configuration.value, null, 2)}\n`);
	writeFileSync(join(paths.dir, 'runtime-locations.json'), `${JSON.stringify({
		schema: 'harness-lab/runtime-locations@1', state: paths.state, session: paths.session, workspace: paths.workspace,
	}, null, 2)}\n`);
	const task = input.tasks[index] ?? null;
	if (task === null) return fail('init', `task ${id} is not available`);
	const missing = task.tools.filter(tool => (plan.tool_versions[tool] ?? null) === null);
	if (missing.length > 0) return fail('missing_tool', `required tool${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}`);
	try {
		await task.setup(paths.workspace);
	} catch (error) {
		return fail('init', `setup failed: ${(error as Error).message}`);
	}
	onStart();
	log.info('execution started');
	const run = await input.executor.execute({
		index,
		task: {id, prompt: task.prompt},
		paths,
		provider: input.provider,
		maxSteps: plan.budgets.max_steps,
		timeoutMs: plan.budgets.timeout_ms,
		signal: input.signal,
	});
	const ran = {wall_ms: run.wall_ms, evidence: {...base.evidence, ...run.evidence}};
	if (run.unfinished !== null || run.outcome === null) {
		const why = run.unfinished ?? {reason: 'crash' as const, message: 'the execution gave no outcome'};
		return fail(why.reason, why.message, {...ran, outcome: run.outcome, usage: run.outcome?.usage ?? null});
	}
	const outcome = run.outcome;
	let grade: Grade;
	try {
		grade = await task.grade({workspace: paths.workspace, outcome, stateDir: paths.state, timeoutMs: plan.budgets.timeout_ms, signal: input.signal});
	} catch (error) {
		return fail('grader', `the grader failed: ${(error as Error).message}`, {...ran, outcome, usage: outcome.usage});
	}
	return {
		...base,
		...ran,
		status: grade.passed ? 'passed' : 'failed',
		reason: null,
		message: grade.passed ? null : `the independent grader did not pass the workspace: ${grade.details}`,
		grade,
		outcome,
		usage: outcome.usage,
	};
}

interface ReportInput {
	plan: Plan;
	attemptId: string;
	side: 'baseline' | 'candidate';
	admission: AdmissionResult;
	candidate: CandidateSnapshot | null;
	host: Report['host'];
	timing: TaskExecutor['timing'];
	results: TaskResult[];
	problems: string[];
	interrupted: boolean;
	startedAt: Date;
	t0: number;
}

function buildReport(input: ReportInput): Report {
	const totals = totalsOf(input.results);
	return Report.parse({
		schema: reportSchema,
		attempt_id: input.attemptId,
		side: input.side,
		timing: input.timing,
		host: input.host,
		plan_digest: input.plan.plan_digest,
		completion: input.interrupted ? 'interrupted' : 'finished',
		admission: {admitted: input.admission.admitted, differences: input.admission.differences},
		candidate: input.candidate === null ? null : candidateIdentity(input.candidate),
		task_ids: input.plan.task_ids,
		tasks: input.results,
		totals,
		passed: input.admission.admitted && !input.interrupted && input.problems.length === 0 && totals.failed === 0,
		problems: input.problems,
		started_at: input.startedAt.toISOString(),
		ended_at: new Date().toISOString(),
		attempt_wall_ms: performance.now() - input.t0,
	});
}
