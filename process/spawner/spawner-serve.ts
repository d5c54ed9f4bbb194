import {adoptCgroupBase} from '../cgroup/cgroup-base.js';
import {hurry} from '../grace.js';
import {runInGroup} from '../run-group.js';
import type {FromSpawner, LaunchOptions, ToSpawner} from './spawner-protocol.js';

/**
 * The spawner: a small long-lived process that runs launches for the supervisor with runInGroup, so each fork
 * copies this process's page tables, not the supervisor's. Started as `node spawner-main.js [CGROUP_BASE CGROUP_HOME]`.
 * When the supervisor goes (the channel closes) or stops it (SIGTERM), every launch still running is ended first.
 */
const [baseDir, baseHome] = process.argv.slice(2);
if (baseDir !== undefined && baseHome !== undefined) adoptCgroupBase(baseDir, baseHome);

/** Every launch taken, waiting its turn (`done` null) or running. */
const running = new Map<number, {abort: AbortController; urge: AbortController; done: Promise<void> | null}>();
/**
 * Launches in the order taken, one an event-loop turn. Messages that arrive together are handled in one go; launched
 * in it, every fork would come before any child's input is written, exit is seen or deadline is heard, and the first
 * children's deadlines would run out while the spawner was still forking the last ones.
 */
const waiting: Array<{id: number; options: LaunchOptions}> = [];
let ending = false;

function send(message: FromSpawner): void {
	// The channel is gone only when the supervisor is: its launches are being ended.
	if (process.connected) process.send!(message);
}

/** Taken now, so that an abort that comes before its turn is heard: the launch then ends before its start, with no fork. */
function take(id: number, options: LaunchOptions): void {
	running.set(id, {abort: new AbortController(), urge: new AbortController(), done: null});
	if (waiting.push({id, options}) === 1) setImmediate(launchNext);
}

function launchNext(): void {
	const next = waiting.shift();
	if (next === undefined || ending) return;
	launch(next.id, next.options);
	if (waiting.length > 0) setImmediate(launchNext);
}

function launch(id: number, options: LaunchOptions): void {
	const entry = running.get(id)!;
	entry.done = runInGroup({...options, signal: entry.abort.signal, urge: entry.urge.signal}).then(
		run => send({kind: 'done', id, run}),
		(error: Error) => send({kind: 'error', id, name: error.name, message: error.message}),
	).finally(() => running.delete(id));
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
	if (message.kind === 'run') return ending ? undefined : take(message.id, message.options);
	if (message.kind === 'hurry') return hurry();
	running.get(message.id)?.[message.kind].abort();
});
process.on('disconnect', () => void end());
process.on('SIGTERM', () => void end());
send({kind: 'ready'});
