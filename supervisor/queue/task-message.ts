import {z} from 'zod';
import {TaskResult} from '../attempt/report/report-schema.js';

/** A job: which task of the denominator to run, and the fresh nonce that binds its answer to it alone. The queue node has the plan. */
export const TaskJobData = z.object({index: z.number().int().nonnegative(), task_id: z.string(), nonce: z.string()});
export type TaskJobData = z.infer<typeof TaskJobData>;

/** One file of a task's exported evidence, relative to its task folder. */
export const EvidenceFile = z.object({path: z.string(), base64: z.string()});
export type EvidenceFile = z.infer<typeof EvidenceFile>;

/** What a queue node returns for a task (`worker`: its name, as the wire has said since the first nodes): its recorded result (as its ledger holds it), the problem if any, and the task folder's files. */
export const TaskJobReturn = z.object({
	worker: z.string(),
	result: TaskResult,
	problem: z.string().nullable(),
	files: z.array(EvidenceFile),
	/** The node's seal over all of the above and the job's binding (queue-seal.ts); null on an unauthenticated queue. */
	seal: z.object({node_nonce: z.string(), mac: z.string()}).nullable(),
});
export type TaskJobReturn = z.infer<typeof TaskJobReturn>;
