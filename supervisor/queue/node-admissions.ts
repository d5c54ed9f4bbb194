import type {Redis} from 'ioredis';
import {NodeAdmission, readAdmissions} from './attempt-channel.js';
import type {QueueAuditFile} from './queue-audit.js';
import {admissionClaim, sealMatches} from './queue-seal.js';

/**
 * The nodes the coordinator admitted for one attempt: each proved it holds the secret with its seal over the attempt
 * id, its name and its nonce. Anyone who reaches Redis can write an admission, so each is checked once here and a
 * bad one recorded as refused. A node restarted under its name admits itself again, with a nonce of its own.
 */
export class NodeAdmissions {
	readonly #admitted = new Map<string, Set<string>>();
	readonly #seen = new Set<string>();

	constructor(readonly attemptId: string, readonly secret: string, readonly audit: QueueAuditFile) {}

	get admitted(): ReadonlyMap<string, ReadonlySet<string>> {
		return this.#admitted;
	}

	/** Reads what stands in Redis now and admits what is sealed; called as answers arrive and once a second. */
	async refresh(control: Redis): Promise<void> {
		for (const entry of await readAdmissions(control, this.attemptId)) {
			const key = JSON.stringify(entry);
			if (this.#seen.has(key)) continue;
			this.#seen.add(key);
			this.#check(entry);
		}
	}

	#check(entry: unknown): void {
		const parsed = NodeAdmission.safeParse(entry);
		const claimed = parsed.success ? parsed.data.node : null;
		const refuse = (why: string): void => this.audit.refused({what: 'admission', claimed_node: claimed, job_id: null, index: null, task_id: null, why});
		if (!parsed.success) return refuse('the admission could not be read');
		const {node, nonce, seal} = parsed.data;
		if (!sealMatches(this.secret, admissionClaim(this.attemptId, node, nonce), seal)) return refuse('its seal does not match this attempt (a node without the secret, or another secret)');
		const nonces = this.#admitted.get(node) ?? new Set<string>();
		if (nonces.size === 0) this.audit.admitted(node);
		nonces.add(nonce);
		this.#admitted.set(node, nonces);
	}
}
