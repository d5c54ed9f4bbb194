import type {Redis} from 'ioredis';
import {z} from 'zod';

/** The set of attempts open for queue nodes, by attempt id. */
const openAttempts = 'hlab:attempts';
const manifestKey = (attemptId: string): string => `hlab:attempt:${attemptId}`;
const refusalsKey = (attemptId: string): string => `hlab:attempt:${attemptId}:refusals`;

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
});
export type AttemptManifest = z.infer<typeof AttemptManifest>;

/** A queue node that refused the attempt, with every difference it found (`worker`: its name, as the wire has said since the first nodes). */
export const NodeRefusal = z.object({worker: z.string(), differences: z.array(z.string())});
export type NodeRefusal = z.infer<typeof NodeRefusal>;

export async function publishAttempt(redis: Redis, manifest: AttemptManifest): Promise<void> {
	await redis.multi().set(manifestKey(manifest.attempt_id), JSON.stringify(manifest)).sadd(openAttempts, manifest.attempt_id).exec();
}

/** The attempt is closed to queue nodes: its manifest and refusals go; a node serving it stops. */
export async function withdrawAttempt(redis: Redis, attemptId: string): Promise<void> {
	await redis.multi().srem(openAttempts, attemptId).del(manifestKey(attemptId), refusalsKey(attemptId)).exec();
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

/** Every key matching `pattern`, found with SCAN (never KEYS, which blocks a shared Redis). */
export async function removeKeys(redis: Redis, pattern: string): Promise<void> {
	let cursor = '0';
	do {
		const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
		if (keys.length > 0) await redis.del(...keys);
		cursor = next;
	} while (cursor !== '0');
}
