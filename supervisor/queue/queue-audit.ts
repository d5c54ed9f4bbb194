import {join} from 'node:path';
import {z} from 'zod';
import {writeJson} from '../../files/write-json.js';

/** An answer, an admission or a node's final audit the coordinator refused: whom it claimed to come from, and why it was refused. */
export const RefusedClaim = z.object({
	what: z.enum(['answer', 'admission', 'audit']),
	claimed_node: z.string().nullable(),
	job_id: z.string().nullable(),
	index: z.number().int().nullable(),
	task_id: z.string().nullable(),
	why: z.string(),
});
export type RefusedClaim = z.infer<typeof RefusedClaim>;

/**
 * `DIR/queue-audit.json`: how the attempt's answers were authenticated, the nodes admitted, which node answered each
 * task, and every claim refused. Rewritten whole (atomic) as it changes; its last state is the attempt's.
 */
export const QueueAudit = z.object({
	schema: z.literal('harness-lab/queue-audit@1'),
	queue_auth: z.enum(['hmac-sha256', 'none']),
	admitted: z.array(z.string()),
	answered: z.array(z.object({index: z.number().int(), task_id: z.string(), node: z.string()})),
	refused: z.array(RefusedClaim),
});
export type QueueAudit = z.infer<typeof QueueAudit>;

/** The audit as the coordinator keeps it: every change written in order, none lost to a later one overtaking it. */
export class QueueAuditFile {
	readonly #audit: QueueAudit;
	#writing: Promise<void> = Promise.resolve();

	constructor(readonly dir: string, auth: QueueAudit['queue_auth']) {
		this.#audit = {schema: 'harness-lab/queue-audit@1', queue_auth: auth, admitted: [], answered: [], refused: []};
	}

	admitted(node: string): void {
		this.#audit.admitted.push(node);
		this.#write();
	}

	answered(index: number, taskId: string, node: string): void {
		this.#audit.answered.push({index, task_id: taskId, node});
		this.#write();
	}

	refused(claim: RefusedClaim): void {
		this.#audit.refused.push(claim);
		this.#write();
	}

	/** Resolves once everything said so far is on disk. */
	async flushed(): Promise<void> {
		await this.#writing;
	}

	#write(): void {
		const snapshot = structuredClone(this.#audit);
		this.#writing = this.#writing.then(() => writeJson(join(this.dir, 'queue-audit.json'), snapshot, {atomic: true})).catch(() => undefined);
	}
}
