import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {PassThrough} from 'node:stream';
import {setTimeout as sleep} from 'node:timers/promises';
import type {Test} from 'tap';
import {runInGroup, type GroupRun} from '../../process/index.js';
import {tempDir} from '../temp-dir.js';
import {evalEntry} from './install-copy.js';

/** An `hlab` process running in the background, its stderr readable while it runs. */
export interface Background {
	pid: number;
	stderr(): string;
	/** Resolves when it ends, whatever ended it. */
	ended: Promise<GroupRun>;
	/** SIGTERM to its group (SIGKILL after the grace), then waits for it. */
	stop(): Promise<GroupRun>;
}

/** The secret the tests' coordinators and queue nodes share, given as a user gives it: in the environment. */
export const testQueueSecret = 'hlab-test-queue-secret-0123456789';
export const queueEnv = {HLAB_QUEUE_SECRET: testQueueSecret};

/** Starts `hlab ARGS` from an installation (its own copy, for a queue node) as a supervised group; stopped when the test ends. */
export async function startHlab(t: Test, root: string | undefined, args: string[], cwd?: string, env: Record<string, string> = queueEnv): Promise<Background> {
	const stopping = new AbortController();
	let text = '';
	const stderr = new PassThrough();
	stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
	let pid = 0;
	// A queue node killed mid-attempt cannot remove its folder under TMPDIR, nor its runtime root (which would otherwise be
	// on /dev/shm, outside every test folder): give it both in a folder the test removes.
	const tmp = await tempDir(t, 'hlab-queue-tmp-');
	const ended = runInGroup({
		argv: [process.execPath, evalEntry(root), ...args], cwd, signal: stopping.signal, deadlineMs: 240_000,
		// A node's clean stop (its Redis links closed) can take seconds on a loaded machine: SIGKILL only well after that.
		graceMs: 15_000, env: {TMPDIR: tmp, XDG_RUNTIME_DIR: tmp, ...env},
		stderr: {kind: 'stream', stream: stderr}, onSpawn: spawned => (pid = spawned),
	});
	const stop = async (): Promise<GroupRun> => {
		stopping.abort();
		return ended;
	};
	t.teardown(stop);
	while (pid === 0) await sleep(5);
	return {pid, stderr: () => text, ended, stop};
}

/** Waits for a condition, up to a generous bound for a loaded machine. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, boundMs = 90_000): Promise<void> {
	for (let waited = 0; waited < boundMs; waited += 50) {
		if (await check()) return;
		await sleep(50);
	}
	throw new Error(`gave up waiting ${boundMs} ms for ${what}`);
}

/** Which queue node answered each task, from the coordinator's log. */
export async function answeringNodes(artifacts: string): Promise<string[]> {
	const lines = (await readFile(join(artifacts, 'log.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as {msg: string; worker?: string});
	return lines.filter(line => line.msg === 'task answered by a queue node').map(line => line.worker!);
}

export async function ledgerLines(path: string): Promise<number> {
	try {
		return (await readFile(path, 'utf8')).split('\n').filter(line => line.trim() !== '').length;
	} catch {
		return 0;
	}
}
