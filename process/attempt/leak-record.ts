import {z} from 'zod';
import {Containment} from '../containment.js';

/**
 * How a leaked process was found: in the attempt's cgroup beside the supervisor, by the attempt's environment
 * marker (or as a descendant of a marked process), or as a child of the supervisor outside any supervised tree.
 */
export const LeakFound = z.enum(['attempt-cgroup', 'attempt-marker', 'supervisor-child']);

/** How it was ended: the quarantine cgroup's `cgroup.kill`, a SIGKILL after its start-time check, or it was gone first. */
export const LeakEnded = z.enum(['cgroup-kill', 'sigkill', 'gone']);

/** One process of an attempt that outlived the task (or the attempt) it ran in. */
export const LeakedProcess = z.object({
	pid: z.number().int(),
	/** From /proc/<pid>/cmdline; null when it could not be read (a zombie, or gone). */
	argv: z.array(z.string()).nullable(),
	comm: z.string().nullable(),
	found: LeakFound,
	ended: LeakEnded,
});
export type LeakedProcess = z.infer<typeof LeakedProcess>;

/** What an attempt's backend can see: the whole subtree of the supervisor, or only what keeps the marker or its parent. */
export const attemptBackendLimits: Record<Containment, string> = {
	cgroup: 'every process started from the supervisor (worker threads included) is born in the attempt cgroup; setsid and a cleared environment change nothing',
	proc: 'only processes that keep the attempt marker in their environment, their descendants, and children of the supervisor are seen; one that clears its environment and leaves its parent (env: {}, setsid) escapes',
	portable: 'only processes that keep the attempt marker in their environment, their descendants, and children of the supervisor are seen; one that clears its environment and leaves its parent (env: {}, setsid) escapes',
};

/** The audit of one look: which backend looked, what it found and ended, and what it could not end. */
export const LeakAudit = z.object({
	backend: Containment,
	leaked: z.array(LeakedProcess),
	/** Pids still alive after they were ended; anything here is a containment defect. */
	survivors: z.array(z.number().int()),
});
export type LeakAudit = z.infer<typeof LeakAudit>;
