import {z} from 'zod';
import type {ShimStep} from './start-shim.js';

/** How a tree's memory was bounded: its cgroup's `memory.max` (the whole tree together), or RLIMIT_DATA on each process. */
export const MemoryLimit = z.object({
	bytes: z.number().int().positive(),
	by: z.enum(['cgroup', 'rlimit_data']),
	/** Processes the kernel's OOM killer ended in the tree's cgroup (`memory.events`); null without one (RLIMIT_DATA: a failed allocation is the process's own error). */
	oom_kills: z.number().int().nonnegative().nullable(),
});
export type MemoryLimit = z.infer<typeof MemoryLimit>;

/**
 * RLIMIT_DATA, not RLIMIT_AS: it counts the private writable memory a process maps (its heap, anonymous mmap), not the
 * address space it merely reserves, which Node and V8 reserve by the gigabyte. The tree's shim sets it with the shell's
 * `ulimit -d` and execs the command, so the leader keeps its pid and every child inherits the limit.
 */
export function dataLimitStep(bytes: number): ShimStep {
	// The shell takes whole KiB; the kernel counts data mappings in whole pages, so the same pages are bounded.
	return {command: `ulimit -d ${Math.floor(bytes / 1024)}`, failure: 'cannot set its memory limit (RLIMIT_DATA)'};
}

/**
 * The memory limit of a task's tool commands, published to the worker threads through the environment (as the sandbox
 * is): the threads share the supervisor's process, so no limit of a process can bound them, only what they start.
 */
export const memoryLimitVariable = 'HLAB_MEMORY_LIMIT';

export function publishMemoryLimit(bytes: number | null): void {
	if (bytes === null) delete process.env[memoryLimitVariable];
	else process.env[memoryLimitVariable] = String(bytes);
}

/** The published limit, or null when the attempt published none (a command outside an attempt). */
export function publishedMemoryLimit(): number | null {
	const value = process.env[memoryLimitVariable];
	return value !== undefined && /^[1-9]\d*$/.test(value) ? Number(value) : null;
}
