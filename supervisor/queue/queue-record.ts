import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import {writeJson} from '../../files/write-json.js';

/** `DIR/queue.json`: which Redis and queue an attempt used, so that a recovery can drain it. Never a password. */
export const QueueRecord = z.object({
	schema: z.literal('harness-lab/attempt-queue@1'),
	attempt_id: z.string(),
	queue: z.string(),
	/** Without its password. */
	redis: z.string(),
	/** How answers were authenticated: `none` is an attempt run with --insecure-queue, whose verdict any Redis client could have written. */
	queue_auth: z.enum(['hmac-sha256', 'none']).optional(),
});
export type QueueRecord = z.infer<typeof QueueRecord>;

export async function writeQueueRecord(dir: string, record: QueueRecord): Promise<void> {
	await writeJson(join(dir, 'queue.json'), record, {durable: true, exclusive: true});
}

/** The attempt's queue record, or null for an attempt that ran locally. */
export async function readQueueRecord(dir: string): Promise<QueueRecord | null> {
	try {
		return QueueRecord.parse(JSON.parse(await readFile(join(dir, 'queue.json'), 'utf8')));
	} catch {
		return null;
	}
}
