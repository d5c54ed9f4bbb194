import type {MessagePort} from 'node:worker_threads';
import type {LoadedCartridge} from '../cartridges/index.js';
import type {CandidateSnapshot} from '../engine/candidate/snapshot.js';
import type {ExecutionOutcome, FailureReason} from '../engine/outcome.js';
import type {RunAgentOptions} from '../engine/loop/run-agent.js';

/** What the supervisor hands a worker thread for one task: the engine's own options, plus what only a thread needs. */
export interface TaskJob extends Pick<RunAgentOptions, 'harness' | 'task' | 'workspace' | 'stateDir' | 'provider' | 'maxSteps' | 'timeoutMs' | 'limiter'> {
	candidate: CandidateSnapshot | null;
	/** A cartridge case: its tools (plain data, their compiled code included) are built in the thread for this case. */
	cartridge?: {data: LoadedCartridge; case_id: string};
	/** Environment key set (to `1`) in this thread while the task runs, so every process it starts carries it. */
	taskMarker: string;
	/** Receives `{pid}` for every process group the task starts, before the group can outlive this thread. */
	port: MessagePort;
}

export type TaskJobResult =
	| {kind: 'outcome'; outcome: ExecutionOutcome; loaded_plugins: string[]}
	| {kind: 'init_failed'; message: string}
	| {kind: 'error'; reason: FailureReason; message: string};

/** A message on the job's port. */
export interface ProcessGroupMessage {
	pid: number;
}
