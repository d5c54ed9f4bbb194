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

/** A stop moved to its faster step (a second interrupt): what was told to stop gets this long before it is ended. */
export const hurriedGraceMs = 250;

let hurried = false;
const onHurried = new Set<() => void>();

/** The faster stop of this process has begun: every grace still running is cut to `hurriedGraceMs`. */
export function hurry(): void {
	if (hurried) return;
	hurried = true;
	for (const listener of onHurried) listener();
}

/** Calls `listener` when the faster stop begins (at once if it has); returns the function that stops listening. */
export function whenHurried(listener: () => void): () => void {
	if (hurried) {
		listener();
		return () => undefined;
	}
	onHurried.add(listener);
	return () => void onHurried.delete(listener);
}
