import {createServer} from 'node:net';
import {setTimeout as sleep} from 'node:timers/promises';
import {Redis} from 'ioredis';
import type {Test} from 'tap';
import {runInGroup, type GroupRun} from '../../../process/index.js';
import {tempDir} from '../../temp-dir.js';

export interface RedisServer {
	url: string;
	port: number;
	/** A client for the test's own looks; closed with the server. */
	client(): Redis;
	/** Ends the server (idempotent); it keeps nothing on disk. */
	stop(): Promise<void>;
}

/** A port free on loopback now (a server may take it between this and its bind; tests bind at once). */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as {port: number}).port;
	await new Promise(resolve => server.close(resolve));
	return port;
}

/**
 * Debian's redis-server on a loopback port of the test's own, in a temp dir, with no persistence (`--save ''`,
 * `--appendonly no`), supervised as a process group; stopped when the test ends, leaving nothing.
 */
export async function startRedis(t: Test, extra: string[] = []): Promise<RedisServer> {
	const dir = await tempDir(t, 'hlab-redis-');
	const port = await freePort();
	const stopping = new AbortController();
	const running: Promise<GroupRun> = runInGroup({
		argv: ['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', ...extra],
		signal: stopping.signal, deadlineMs: null, trackDescendants: false,
	});
	const clients: Redis[] = [];
	const url = `redis://127.0.0.1:${port}`;
	const password = extra.includes('--requirepass') ? extra[extra.indexOf('--requirepass') + 1] : undefined;
	const client = (): Redis => {
		const made = new Redis(port, '127.0.0.1', {maxRetriesPerRequest: 1, retryStrategy: () => null, ...(password === undefined ? {} : {password})});
		made.on('error', () => undefined);
		clients.push(made);
		return made;
	};
	let stopped = false;
	const stop = async (): Promise<void> => {
		if (stopped) return;
		stopped = true;
		for (const made of clients) made.disconnect();
		stopping.abort();
		await running;
	};
	t.teardown(stop);
	await waitUntilAnswering(client, running);
	return {url, port, client, stop};
}

async function waitUntilAnswering(client: () => Redis, running: Promise<GroupRun>): Promise<void> {
	let ended = false;
	void running.then(() => (ended = true));
	for (let waited = 0; waited < 20_000; waited += 50) {
		if (ended) throw new Error(`redis-server ended before answering: ${(await running).stderr?.toString() ?? ''}`);
		const probe = client();
		try {
			if (await probe.ping() === 'PONG') return;
		} catch {
			// Not listening yet.
		} finally {
			probe.disconnect();
		}
		await sleep(50);
	}
	throw new Error('redis-server did not answer within 20 s');
}
