import {mkdtemp, rmdir} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {coordinatorAlive, openAttemptIds, readManifest} from './attempt-channel.js';
import type {RedisLink} from './redis-link.js';
import {serveAttempt, type QueueNodeIdentity} from './serve-attempt.js';

/** How often an idle queue node looks for an open attempt. */
const idleMs = 300;

/**
 * `hlab queue-node`: looks for attempts open on this Redis and serves them one at a time, until `stop`. An attempt this
 * node refused, or served until it was withdrawn, is not taken again.
 */
export async function runQueueNode(link: RedisLink, me: Omit<QueueNodeIdentity, 'root'>, stop: AbortSignal): Promise<void> {
	const root = await mkdtemp(join(tmpdir(), 'hlab-queue-node-'));
	// Reconnects for as long as it takes, but a look at Redis fails at once while it is away, so a stop is never held up.
	const control = link.client(true, {maxRetriesPerRequest: 1});
	control.on('error', () => undefined);
	const done = new Set<string>();
	try {
		while (!stop.aborted) {
			const next = (await openAttemptIds(control).catch(() => [])).find(id => !done.has(id));
			const manifest = next === undefined ? null : await readManifest(control, next).catch(() => null);
			if (next === undefined || manifest === null) {
				await sleep(idleMs, undefined, {signal: stop}).catch(() => undefined);
				continue;
			}
			done.add(next);
			// Left open by a coordinator that died: taking it would hold this node until someone runs --recover.
			if (!await coordinatorAlive(control, next).catch(() => true)) {
				me.say(`skipping attempt ${next}: its coordinator is gone (no heartbeat)`);
				continue;
			}
			if (await serveAttempt(link, control, manifest, {...me, root}, stop) === 'served') me.say(`done with attempt ${next}`);
		}
	} finally {
		control.disconnect();
		// Only evidence kept for a task over the bound is left, and serveAttempt named where.
		await rmdir(root).catch(() => me.say(`evidence over the bound is kept in ${root}`));
	}
}
