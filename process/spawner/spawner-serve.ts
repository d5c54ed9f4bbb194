import {adoptCgroupBase} from '../cgroup/cgroup-base.js';
import {hurry} from '../grace.js';
import {runInGroup} from '../run-group.js';
import type {FromSpawner, ToSpawner} from './spawner-protocol.js';

/**
 * The spawner: a small long-lived process that runs launches for the supervisor with runInGroup, so each fork
 * copies this process's page tables, not the supervisor's. Started as `node spawner-main.js [CGROUP_BASE CGROUP_HOME]`.
 * When the supervisor goes (the channel closes) or stops it (SIGTERM), every launch still running is ended first.
 */
const [baseDir, baseHome] = process.argv.slice(2);
if (baseDir !== undefined && baseHome !== undefined) adoptCgroupBase(baseDir, baseHome);

const running = new Map<number, {abort: AbortController; urge: AbortController; done: Promise<void>}>();
let ending = false;

function send(message: FromSpawner): void {
	// The channel is gone only when the supervisor is: its launches are being ended.
	if (process.connected) process.send!(message);
}

function launch(id: number, options: Extract<ToSpawner, {kind: 'run'}>['options']): void {
	const abort = new AbortController();
	const urge = new AbortController();
	const done = runInGroup({...options, signal: abort.signal, urge: urge.signal}).then(
		run => send({kind: 'done', id, run}),
		(error: Error) => send({kind: 'error', id, name: error.name, message: error.message}),
	).finally(() => running.delete(id));
	running.set(id, {abort, urge, done});
}

/** Ends every launch (each runInGroup stops its own tree), then exits. */
async function end(): Promise<void> {
	if (ending) return;
	ending = true;
	const all = [...running.values()];
	for (const entry of all) entry.abort.abort();
	await Promise.all(all.map(entry => entry.done));
	process.exit(0);
}

process.on('message', (message: ToSpawner) => {
	if (message.kind === 'run') return ending ? undefined : launch(message.id, message.options);
	if (message.kind === 'hurry') return hurry();
	running.get(message.id)?.[message.kind].abort();
});
process.on('disconnect', () => void end());
process.on('SIGTERM', () => void end());
send({kind: 'ready'});
