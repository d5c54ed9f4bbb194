import type {MessagePort} from 'node:worker_threads';
import type {LoadedCartridge} from '../cartridges/index.js';
import type {CandidateSnapshot} from '../engine/candidate/snapshot.js';
import {z} from 'zod';
import {ExecutionOutcome, EngineFailureReason} from '../engine/outcome.js';
import type {RunAgentOptions} from '../engine/loop/run-agent.js';

/** What the supervisor hands a worker thread for one task: the engine's own options, plus what only a thread needs. */
export interface TaskJob extends Pick<RunAgentOptions, 'harness' | 'task' | 'workspace' | 'stateDir' | 'provider' | 'maxSteps' | 'limiter'> {
	/** The task's soft deadline: the engine ends the task there; the pool ends its thread at the hard one if it has not settled. */
	deadlineMs: number;
	candidate: CandidateSnapshot | null;
	/** A cartridge case: its tools (plain data, their compiled code included) are built in the thread for this case. */
	cartridge?: {data: LoadedCartridge; case_id: string};
	/** Environment key set (to `1`) for every process this task starts; other tasks share the thread, so never the thread's own environment. */
	taskMarker: string;
	/** The task's channel: the thread sends {@link TaskThreadMessage}s on it and receives {@link TaskControlMessage}s. */
	port: MessagePort;
	/**
	 * One Int32 over shared memory, set to 1 while candidate code runs synchronously for this task and 0 otherwise:
	 * when a thread stops answering, the supervisor reads it to name the task whose code holds the thread.
	 */
	inCandidateCode: Int32Array;
}

/** A thread's answer; a schema, since a sandboxed runner sends it back over a socket, as a claim to check. */
export const TaskJobResult = z.discriminatedUnion('kind', [
	z.object({kind: z.literal('outcome'), outcome: ExecutionOutcome, loaded_plugins: z.array(z.string())}),
	z.object({kind: z.literal('init_failed'), message: z.string()}),
	z.object({kind: z.literal('error'), reason: EngineFailureReason, message: z.string()}),
]);
export type TaskJobResult = z.infer<typeof TaskJobResult>;

/** From the thread: which thread took the task (sent first), then every process group the task starts. */
export type TaskThreadMessage = {thread: number} | {pid: number};

/** To the thread: end this task cooperatively (its model request, commands and loop), for this reason. */
export interface TaskControlMessage {
	abort: 'deadline' | 'interrupted';
}

/** What a warm-up answers: the thread it ran in, so the pool knows when every thread has loaded the engine. */
export interface WarmUpAnswer {
	warm: number;
}
