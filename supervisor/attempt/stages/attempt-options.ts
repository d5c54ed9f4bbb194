import {existsSync} from 'node:fs';
import type {Logger} from 'pino';
import type {Harness} from '../../../harness/index.js';
import type {Plan} from '../../plan/plan-schema.js';
import type {TraceOptions} from '../export/attempt-traces.js';
import type {RemotePlacement} from '../task-core/task-placement.js';
import type {CarriedTasks} from './carried-records.js';
import {hostDirOf} from '../../host/index.js';
import {InputError} from '../../input-error.js';

export interface AttemptOptions {
	planPath: string;
	artifacts: string;
	candidatePath: string | null;
	/** A host executable that runs every task as `EXE host-worker` (exclusive with `candidatePath`). */
	candidateHost?: string | null;
	/** A third-party agent spec whose agent runs every task through its adapter (exclusive with the other candidates). */
	agentSpec?: string | null;
	/** A cartridge plan's candidate: a changed cartridge whose harness runs the plan's cases (its suite must be the plan's). */
	candidateCartridge?: string | null;
	/** The side this attempt is recorded as; by default `candidate` when a candidate or host is given. */
	side?: 'baseline' | 'candidate';
	keepWorkdirs: boolean;
	configPath: string | null;
	cwd?: string;
	/** Interrupts the attempt: running tasks are ended and recorded, the report is marked interrupted. */
	signal?: AbortSignal;
	/** No progress output (for --json). */
	quiet?: boolean;
	/** Worker threads the in-process tasks share; null: the available cores, at most the frozen concurrency. */
	threads?: number | null;
	/** The Harness every task runs in place of the built-in agent (in-process attempts); its fingerprint goes in attempt.json. */
	harness?: Harness | null;
	/** Files a sandboxed command must not see beyond what the plan names (a queue's secret file): hidden from every sandbox view. */
	secretFiles?: string[];
	/** Ships every whole turn elsewhere (queue nodes) instead of executing it here; the nodes then check their own API key. */
	remotePlacement?: (attempt: {attemptId: string; dir: string; plan: Plan; log: Logger}) => RemotePlacement;
	/** Exports each recorded task as a trace over OTLP/HTTP; never slows or fails the attempt. */
	traces?: TraceOptions | null;
	/** Sealed records of an earlier attempt of this plan, taken in place of running their entries (`hlab eval --resume`). */
	carried?: CarriedTasks | null;
}

export class HostOptionError extends InputError {
	constructor(readonly reason: 'usage' | 'evidence_exists', message: string) {
		super(message);
	}
}

/** Refuses options that contradict each other before anything is written. */
export function checkOptions(options: AttemptOptions): void {
	const candidateHost = options.candidateHost ?? null;
	if (candidateHost !== null && options.candidatePath !== null) throw new HostOptionError('usage', 'give at most one of --candidate and --candidate-host');
	// A host build brings its own agent; a harness value can only be given to in-process tasks.
	if (candidateHost !== null && (options.harness ?? null) !== null) throw new HostOptionError('usage', 'a harness cannot be given to a --candidate-host attempt');
	if (candidateHost !== null && (options.candidateCartridge ?? null) !== null) throw new HostOptionError('usage', 'give at most one of --candidate-cartridge and --candidate-host');
	const agentSpec = options.agentSpec ?? null;
	if (agentSpec !== null && (options.candidatePath !== null || candidateHost !== null || (options.candidateCartridge ?? null) !== null)) {
		throw new HostOptionError('usage', 'give at most one of --agent, --candidate, --candidate-host and --candidate-cartridge');
	}
	if (agentSpec !== null && (options.harness ?? null) !== null) throw new HostOptionError('usage', 'a harness cannot be given to an --agent attempt');
	// The host record folder sits beside the evidence directory; both must be new before anything is written.
	if (candidateHost !== null && existsSync(hostDirOf(options.artifacts))) throw new HostOptionError('evidence_exists', `${hostDirOf(options.artifacts)} already exists; each host attempt needs a new one`);
}

export function sideOf(options: AttemptOptions): 'baseline' | 'candidate' {
	const candidate = options.candidatePath !== null || (options.candidateHost ?? null) !== null || (options.candidateCartridge ?? null) !== null || (options.agentSpec ?? null) !== null;
	return options.side ?? (candidate ? 'candidate' : 'baseline');
}
