import {createHmac, randomBytes, timingSafeEqual} from 'node:crypto';
import {canonicalJson} from '../../files/canonical-json.js';

/** What every seal is: HMAC-SHA256 with the queue secret over the canonical JSON of what it binds. */
export const sealScheme = 'hmac-sha256';

export function sealOf(secret: string, value: unknown): string {
	return createHmac('sha256', secret).update(canonicalJson(value)).digest('hex');
}

/** Compared in constant time: a seal's bytes must not leak through how long a refusal takes. */
export function sealMatches(secret: string, value: unknown, seal: unknown): boolean {
	if (typeof seal !== 'string' || !/^[0-9a-f]{64}$/.test(seal)) return false;
	return timingSafeEqual(Buffer.from(sealOf(secret, value), 'hex'), Buffer.from(seal, 'hex'));
}

/** A fresh nonce: what makes one job's (or one admission's) seal useless for any other. */
export const freshNonce = (): string => randomBytes(16).toString('hex');

/** What a coordinator seals when it publishes an attempt: the whole manifest but its seal. */
export function manifestClaim(manifest: Record<string, unknown>): unknown {
	const {seal: _seal, ...rest} = manifest;
	return {purpose: 'harness-lab/queue-attempt', manifest: rest};
}

/** What a node seals to be admitted: this attempt, its name, its nonce. */
export function admissionClaim(attemptId: string, node: string, nonce: string): unknown {
	return {purpose: 'harness-lab/queue-admission', attempt_id: attemptId, node, nonce};
}

/** The job an answer belongs to, as the coordinator published it. */
export interface JobBinding {
	attempt_id: string;
	job_id: string;
	index: number;
	task_id: string;
	nonce: string;
}

/** What a node seals with an answer: the whole answer (result, problem, every evidence file) and the job's binding, its name and admission nonce. */
export function answerClaim(binding: JobBinding, node: string, nodeNonce: string, answer: Record<string, unknown>): unknown {
	const {seal: _seal, ...rest} = answer;
	return {purpose: 'harness-lab/queue-answer', ...binding, node, node_nonce: nodeNonce, answer: rest};
}

/** What a node seals with its final leak audit: this attempt, its name and admission nonce, and the whole audit. */
export function auditClaim(attemptId: string, node: string, nodeNonce: string, audit: unknown): unknown {
	return {purpose: 'harness-lab/queue-node-audit', attempt_id: attemptId, node, node_nonce: nodeNonce, audit};
}
