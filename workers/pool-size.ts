import {availableParallelism} from 'node:os';

/** How many worker threads run an attempt's in-process tasks, and how many tasks each runs at once. */
export interface PoolSize {
	threads: number;
	tasksPerThread: number;
}

/**
 * By default one thread per available core; never more threads than tasks in flight. The lanes (the frozen
 * concurrency) are shared out over the threads, so the pool holds exactly as many tasks at once as there are lanes.
 */
export function poolSize(lanes: number, threads: number | null): PoolSize {
	const count = Math.max(1, Math.min(threads ?? availableParallelism(), lanes));
	return {threads: count, tasksPerThread: Math.ceil(lanes / count)};
}
