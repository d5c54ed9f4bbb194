import {z} from 'zod';

/** One Harbor task as a plan keeps it: where it is, the view it runs in, its deadlines and resources. */
export const HarborTask = z.object({
	/** The task folder's name. */
	id: z.string(),
	/** The task folder's absolute path. */
	dir: z.string(),
	/** The Dockerfile's WORKDIR: where the agent and the verifier see the workspace. */
	workdir: z.string(),
	/** What the Dockerfile copies from environment/ into the WORKDIR, laid into the fresh workspace. */
	copies: z.array(z.object({from: z.string(), to: z.string()})),
	/** The agent's deadline: `--timeout` when given at freeze, else [agent] timeout_sec. */
	agent_timeout_ms: z.number().int().positive(),
	/** The verifier's own deadline: [verifier] timeout_sec. */
	verifier_timeout_ms: z.number().int().positive(),
	/** [environment] cpus, recorded; null when the task names none. */
	cpus: z.number().positive().nullable(),
	/** [environment] memory_mb in bytes; each of the task's processes is limited to it. Null when the task names none. */
	memory_bytes: z.number().int().positive().nullable(),
});
export type HarborTask = z.infer<typeof HarborTask>;

/** The folders of a task that are never the agent's: the verifier and the reference solution. */
export const hiddenFolders = ['tests', 'solution'] as const;
