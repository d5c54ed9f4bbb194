import type {Redis} from 'ioredis';
import {z} from 'zod';

/** The set of attempts open for queue nodes, by attempt id. */
const openAttempts = 'hlab:attempts';
const manifestKey = (attemptId: string): string => `hlab:attempt:${attemptId}`;
const refusalsKey = (attemptId: string): string => `hlab:attempt:${attemptId}:refusals`;
const admissionsKey = (attemptId: string): string => `hlab:attempt:${attemptId}:nodes`;
const auditsKey = (attemptId: string): string => `hlab:attempt:${attemptId}:audits`;
const heartbeatKey = (attemptId: string): string => `hlab:attempt:${attemptId}:alive`;

/** The BullMQ queue of one attempt: its tasks, and nothing else, go there. */
export const queueNameOf = (attemptId: string): string => `hlab-${attemptId}`;

/** What a coordinator publishes for queue nodes: the plan's exact bytes and how to run its tasks. Never a key or a secret. */
export const AttemptManifest = z.object({
	schema: z.literal('harness-lab/queue-attempt@1'),
	attempt_id: z.string(),
	queue: z.string(),
	/** The plan.json bytes the coordinator admitted (utf-8). */
	plan: z.string(),
	keep_workspace: z.boolean(),
	/** A task's exported evidence larger than this fails the task (`evidence_limit`); nothing is truncated. */
	evidence_limit_bytes: z.number().int().positive(),
	/** How long a queue node's lock on a task lasts unrenewed before the task counts as lost (`worker_lost`). */
	lock_ms: z.number().int().positive(),
	/** How answers are authenticated: sealed with the secret coordinator and nodes share, or not at all (--insecure-queue). */
	auth: z.enum(['hmac-sha256', 'none']),
	/** The coordinator's seal over the rest: a node with the secret serves no attempt someone else published. */
	seal: z.string().nullable(),
});
export type AttemptManifest = z.infer<typeof AttemptManifest>;

/** A queue node that refused the attempt, with every difference it found (`worker`: its name, as the wire has said since the first nodes). */
export const NodeRefusal = z.object({worker: z.string(), differences: z.array(z.string())});
export type NodeRefusal = z.infer<typeof NodeRefusal>;

/** A node's proof, for one attempt, that it holds the secret: its seal over the attempt, its name and a nonce of its own. */
export const NodeAdmission = z.object({node: z.string(), nonce: z.string(), seal: z.string()});
export type NodeAdmission = z.infer<typeof NodeAdmission>;

export async function publishAttempt(redis: Redis, manifest: AttemptManifest): Promise<void> {
	await redis.multi().set(manifestKey(manifest.attempt_id), JSON.stringify(manifest)).sadd(openAttempts, manifest.attempt_id).exec();
}

/** The attempt is closed to queue nodes: its manifest goes; a node serving it stops, and posts its final audit. */
export async function withdrawAttempt(redis: Redis, attemptId: string): Promise<void> {
	await redis.multi().srem(openAttempts, attemptId).del(manifestKey(attemptId)).exec();
}

/** What the nodes said of the attempt (refusals, admissions, final audits) goes, once the coordinator has read it. */
export async function forgetAttempt(redis: Redis, attemptId: string): Promise<void> {
	await redis.del(refusalsKey(attemptId), admissionsKey(attemptId), auditsKey(attemptId), heartbeatKey(attemptId));
}

/** A coordinator beats every second; unrenewed for its node lock (at least five beats), it counts as gone. */
export const heartbeatTtlMs = (lockMs: number): number => Math.max(lockMs, 5000);

/** The coordinator is alive for one heartbeat TTL more: unrenewed (it died), the key expires and its nodes leave the attempt. */
export async function beatHeart(redis: Redis, attemptId: string, lockMs: number): Promise<void> {
	await redis.set(heartbeatKey(attemptId), '1', 'PX', heartbeatTtlMs(lockMs));
}

export async function coordinatorAlive(redis: Redis, attemptId: string): Promise<boolean> {
	return (await redis.exists(heartbeatKey(attemptId))) === 1;
}

/** The attempts open now, oldest first as far as Redis can tell (a set has no order: sorted by id for a stable choice). */
export async function openAttemptIds(redis: Redis): Promise<string[]> {
	return (await redis.smembers(openAttempts)).sort();
}

/** The attempt's manifest, or null once it is withdrawn (or unreadable). */
export async function readManifest(redis: Redis, attemptId: string): Promise<AttemptManifest | null> {
	const text = await redis.get(manifestKey(attemptId));
	if (text === null) return null;
	const parsed = AttemptManifest.safeParse(JSON.parse(text));
	return parsed.success ? parsed.data : null;
}

export async function isOpen(redis: Redis, attemptId: string): Promise<boolean> {
	return (await redis.sismember(openAttempts, attemptId)) === 1;
}

export async function recordRefusal(redis: Redis, attemptId: string, refusal: NodeRefusal): Promise<void> {
	await redis.rpush(refusalsKey(attemptId), JSON.stringify(refusal));
}

/** Refusals from index `from` on. */
export async function readRefusals(redis: Redis, attemptId: string, from: number): Promise<NodeRefusal[]> {
	const lines = await redis.lrange(refusalsKey(attemptId), from, -1);
	return lines.map(line => NodeRefusal.parse(JSON.parse(line)));
}

export async function recordAdmission(redis: Redis, attemptId: string, admission: NodeAdmission): Promise<void> {
	await redis.hset(admissionsKey(attemptId), admission.node, JSON.stringify(admission));
}

/** Whatever stands under the node names now; anyone who reaches Redis can write there, so the coordinator checks each seal. */
export async function readAdmissions(redis: Redis, attemptId: string): Promise<unknown[]> {
	return Object.values(await redis.hgetall(admissionsKey(attemptId))).map(parsedOrText);
}

/** A node's final leak audit of its share of the attempt (`audit`), sealed to its admission; null seal on an unauthenticated queue. */
export const NodeAuditPost = z.object({node: z.string(), audit: z.unknown(), seal: z.object({node_nonce: z.string(), mac: z.string()}).nullable()});
export type NodeAuditPost = z.infer<typeof NodeAuditPost>;

export async function postNodeAudit(redis: Redis, attemptId: string, post: NodeAuditPost): Promise<void> {
	await redis.hset(auditsKey(attemptId), post.node, JSON.stringify(post));
}

/** Whatever stands under the node names now, each unread and unchecked: anyone who reaches Redis can write there. */
export async function readNodeAudits(redis: Redis, attemptId: string): Promise<unknown[]> {
	return Object.values(await redis.hgetall(auditsKey(attemptId))).map(parsedOrText);
}

function parsedOrText(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** Every key matching `pattern`, found with SCAN (never KEYS, which blocks a shared Redis). */
export async function removeKeys(redis: Redis, pattern: string): Promise<void> {
	let cursor = '0';
	do {
		const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
		if (keys.length > 0) await redis.del(...keys);
		cursor = next;
	} while (cursor !== '0');
}
