import {Queue} from 'bullmq';
import {forgetAttempt, removeKeys, withdrawAttempt} from './attempt-channel.js';
import {openRedisLink} from './redis-link.js';
import type {QueueRecord} from './queue-record.js';

/**
 * After a coordinator died: the attempt is withdrawn (its queue nodes stop and end its running tasks) and its queue removed
 * with every job in it, so no queue node takes one. `url` overrides the recorded address (which never holds a password).
 */
export async function drainAttemptQueue(record: QueueRecord, url: string | null, password: string | null): Promise<{jobs: number}> {
	// The record never holds a password: a protected Redis needs it given again.
	const link = await openRedisLink(url ?? record.redis, password);
	const control = link.client(false);
	control.on('error', () => undefined);
	const client = link.client(false);
	const queue = new Queue(record.queue, {connection: client});
	try {
		await withdrawAttempt(control, record.attempt_id);
		await forgetAttempt(control, record.attempt_id);
		const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
		await queue.obliterate({force: true});
		await queue.close();
		await removeKeys(control, `bull:${record.queue}:*`);
		return {jobs: Object.values(counts).reduce((sum, count) => sum + count, 0)};
	} finally {
		await queue.close();
		control.disconnect();
		client.disconnect();
	}
}
