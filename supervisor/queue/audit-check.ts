import {z} from 'zod';
import {AttemptLeaks} from '../attempt/report/report-schema.js';
import {NodeAuditPost} from './attempt-channel.js';
import {auditClaim, sealMatches} from './queue-seal.js';

/** What a node's final audit holds: the attempt's leaks and problems as its `serveTasks` ended with them. */
export const NodeFinalAudit = z.object({leaks: AttemptLeaks, problems: z.array(z.string())});
export type NodeFinalAudit = z.infer<typeof NodeFinalAudit>;

/** A node's final audit the coordinator takes, or why it refused it and whom it claimed to come from. */
export type AuditCheck = {accepted: {node: string; audit: NodeFinalAudit}} | {refused: string; claimed: string | null};

/**
 * Whether a final audit read from Redis is the node's own: from an admitted node, sealed with the secret over this
 * attempt, the node's name, one of its admission nonces and the whole audit (so a forged one, or one copied from another
 * attempt or node, is refused). On an unauthenticated queue (`secret` null) only its shape is checked.
 */
export function checkNodeAudit(raw: unknown, attemptId: string, secret: string | null, admitted: ReadonlyMap<string, ReadonlySet<string>>): AuditCheck {
	const post = NodeAuditPost.safeParse(raw);
	if (!post.success) return {refused: 'the audit could not be read', claimed: null};
	const {node, audit, seal} = post.data;
	const refuse = (why: string): AuditCheck => ({refused: why, claimed: node});
	if (secret !== null) {
		const nonces = admitted.get(node);
		if (nonces === undefined) return refuse(`node ${node} was not admitted for this attempt`);
		if (seal === null) return refuse('the audit is not sealed');
		if (!nonces.has(seal.node_nonce)) return refuse(`the seal is not from an admission of node ${node}`);
		if (!sealMatches(secret, auditClaim(attemptId, node, seal.node_nonce, audit), seal.mac)) return refuse('its seal does not match this attempt and audit (forged, altered, or copied from another attempt)');
	}
	const parsed = NodeFinalAudit.safeParse(audit);
	if (!parsed.success) return refuse(`the audit could not be read: ${parsed.error.message.slice(0, 200)}`);
	return {accepted: {node, audit: parsed.data}};
}
