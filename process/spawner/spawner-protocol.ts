import type {GroupRun, RunOptions} from '../run-group.js';

/**
 * The messages between the supervisor and its spawner, over the Node IPC channel (advanced serialization, so
 * Buffers pass). Both ends are harness-lab's own code; a launched command never holds the channel (libuv opens it
 * close-on-exec, and a socket cannot be reopened through /proc).
 */

/** What of `RunOptions` crosses the channel: data only; the signals are relayed as messages. */
export type LaunchOptions = Omit<RunOptions, 'signal' | 'urge' | 'onSpawn' | 'stdout' | 'stderr' | 'ipc'> & {markerKey: string};

export type ToSpawner =
	| {kind: 'run'; id: number; options: LaunchOptions}
	/** The launch's signal aborted (SIGTERM, the grace, SIGKILL), or its urge (one more SIGTERM). */
	| {kind: 'abort' | 'urge'; id: number}
	/** The supervisor's stop moved to its faster step: every grace still running is cut. */
	| {kind: 'hurry'};

export type FromSpawner =
	| {kind: 'ready'}
	| {kind: 'done'; id: number; run: GroupRun}
	/** runInGroup threw (bad options, a backend asked for that is unusable): thrown again in the supervisor. */
	| {kind: 'error'; id: number; name: string; message: string};
