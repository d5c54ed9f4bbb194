/**
 * The one grace: how long what was told to stop (a process group sent SIGTERM, a task thread past its soft deadline,
 * a host worker past its task's deadline) gets to end by itself before it is ended. Long enough for a Node process
 * to flush and exit, short enough that a task that will not stop costs little.
 */
export const graceMs = 2000;

/** After SIGKILL: how long cleanup waits for a tree to be gone before it looks again (the kernel is slow only under load). */
export const killWaitMs = 2000;

/** The hard deadline: the soft one (the run loop stops itself there) plus the grace, after which the outside ends it. */
export function hardDeadline(deadlineMs: number, grace = graceMs): number {
	return deadlineMs + grace;
}
