import {z} from 'zod';
import type {CandidateSnapshot} from '../engine/candidate/snapshot.js';
import type {ProviderLimits} from '../engine/provider/provider-limits.js';
import type {PoolSize} from './pool-size.js';
import {TaskJobResult, type TaskJob} from './task-job.js';

/**
 * The sandboxed task runner's channel: newline-delimited JSON on a unix socket the supervisor listens on and the
 * runner (`node dist/workers/task-runner.js SOCKET`) connects to. The supervisor sends one {@link RunnerStart}, then
 * {@link RunnerTask}s, {@link RunnerAbort}s and at most one {@link RunnerProviderDied}; the runner answers with one {@link RunnerAnswer} `ready`, then one `done`
 * per task. Everything the runner sends is untrusted (candidate code runs there): it is parsed, and stays a claim.
 */
export interface RunnerStart {
	kind: 'start';
	size: PoolSize;
	candidate: CandidateSnapshot | null;
	/** The plan's provider limits: the runner holds the attempt's one limiter, shared by its threads. */
	limits: ProviderLimits | null;
}

/** One task, as the pool takes it, minus what the runner adds itself (the candidate, the limiter, the thread's channel). */
export interface RunnerTask {
	kind: 'task';
	id: number;
	job: Omit<TaskJob, 'port' | 'taskMarker' | 'inCandidateCode' | 'candidate' | 'limiter'>;
}

/** The attempt was interrupted while this task ran: the runner ends it as the pool does, with the grace. */
export interface RunnerAbort {
	kind: 'abort';
	id: number;
}

/** The attempt's provider service died: the runner's limiter is marked, so its tasks stop asking at once. */
export interface RunnerProviderDied {
	kind: 'provider_died';
	at_ms: number;
}

export type RunnerRequest = RunnerStart | RunnerTask | RunnerAbort | RunnerProviderDied;

/** How the runner's pool ended one task: the thread's answer, or why there was none. */
export const RunnerTaskRun = z.discriminatedUnion('kind', [
	z.object({kind: z.literal('result'), result: TaskJobResult}),
	z.object({kind: z.enum(['deadline', 'aborted', 'crash']), message: z.string()}),
]);
export type RunnerTaskRun = z.infer<typeof RunnerTaskRun>;

export const RunnerAnswer = z.discriminatedUnion('kind', [
	z.object({kind: z.literal('ready'), threads: z.number().int().positive()}),
	z.object({kind: z.literal('done'), id: z.number().int().nonnegative(), run: RunnerTaskRun}),
]);
export type RunnerAnswer = z.infer<typeof RunnerAnswer>;

/** A line longer than this is not a message: the supervisor stops reading the runner. */
export const runnerLineLimit = 64 * 1024 * 1024;
