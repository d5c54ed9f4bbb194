import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import type {Test} from 'tap';
import {runInGroup, type GroupRun} from '../../process/index.js';
import {readStat} from '../../process/proc-table.js';
import {identityOf, isStillRunning, type ProcessIdentity} from '../../process/process-identity.js';

export const bin = join(import.meta.dirname, '../../../bin/hlab.js');

/**
 * Code that starts processes that ignore SIGTERM, each in a session of its own, and writes their pids to `pidFile`:
 * one inherits the environment (the test file's marker), one has it cleared (only its pid finds it), and with
 * `orphan` a third, environment cleared, whose parent exits at once (no ancestry leads to it: only a cgroup holds it).
 */
export function startSleepers(pidFile: string, orphan: boolean): string {
	return `{
		const {spawn} = process.getBuiltinModule('node:child_process');
		const {appendFileSync} = process.getBuiltinModule('node:fs');
		const start = env => spawn('/bin/sh', ['-c', 'trap "" TERM; exec sleep 300'], {detached: true, stdio: 'ignore', ...env});
		const marked = start({});
		const cleared = start({env: {PATH: '/usr/bin:/bin'}});
		marked.unref();
		cleared.unref();
		appendFileSync(${JSON.stringify(pidFile)}, marked.pid + '\\n' + cleared.pid + '\\n');
		if (${orphan}) spawn('/bin/sh', ['-c', 'trap "" TERM; sleep 300 & echo $! >> "$0"', ${JSON.stringify(pidFile)}], {detached: true, stdio: 'ignore', env: {PATH: '/usr/bin:/bin'}}).unref();
	}`;
}

/**
 * A step policy that starts the sleepers, then holds its thread without yielding (the thread is ended after the
 * grace): the task stays in flight, and its stop takes the whole grace.
 */
export function stallingCandidate(pidFile: string, orphan = true): string {
	return `export default {
	initialize() {
		return {protocol_version: 1, id: 'stall', capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]};
	},
	async invokeCapability() {
		${startSleepers(pidFile, orphan)}
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
		return {output: {stop: false}};
	},
};
`;
}

/**
 * The report agent's tool, changed to start the sleepers (no orphan: a cartridge run has no attempt cgroup, see
 * docs/stopping.md) and then hold its thread: the case stays in flight.
 */
export function stallingTool(pidFile: string): string {
	return `export function execute(): object {
	${startSleepers(pidFile, false)}
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
	return {};
}
`;
}

export interface Supervised {
	pid: number;
	ended: Promise<GroupRun>;
}

/** Starts hlab as a user's shell would; the test's own supervision sweeps nothing, so only hlab's cleanup counts. */
export async function startHlab(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Supervised> {
	let pid = 0;
	const ended = runInGroup({argv: [process.execPath, bin, ...args], env, cwd, deadlineMs: 120_000, containment: 'proc', trackDescendants: false, sweep: false, onSpawn: spawned => (pid = spawned)});
	return {pid, ended};
}

export async function waitFor(what: () => boolean, ms: number): Promise<boolean> {
	for (let waited = 0; !what() && waited < ms; waited += 50) await sleep(50);
	return what();
}

/** How many sleepers `startSleepers` starts. */
export const sleeperCount = (orphan = true): number => (orphan ? 3 : 2);

/** The sleepers' identities once `count` of them are running (pid and start time: a reused pid is never taken for one). */
export async function sleepersOf(t: Test, pidFile: string, count: number): Promise<ProcessIdentity[]> {
	const pids = (): number[] => existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : [];
	t.ok(await waitFor(() => pids().length >= count, 60_000), `the task started its ${count} sleepers`);
	const identities = pids().map(readStat).filter(stat => stat !== null).map(identityOf);
	// Whatever the outcome, one failure stays one: the sleepers go when the test does.
	t.teardown(() => {
		for (const identity of identities) if (isStillRunning(identity)) process.kill(identity.pid, 'SIGKILL');
	});
	return identities;
}

/** Sleepers still running a moment after hlab ended (a killed one may take that long to be reaped). */
export async function survivors(identities: ProcessIdentity[]): Promise<number[]> {
	await waitFor(() => !identities.some(isStillRunning), 3000);
	return identities.filter(isStillRunning).map(identity => identity.pid);
}

/** Sends the signals `gapMs` apart, and returns when the last was sent (performance.now()). */
export async function sendSignals(pid: number, signals: NodeJS.Signals[], gapMs = 300): Promise<number> {
	for (const [index, signal] of signals.entries()) {
		if (index > 0) await sleep(gapMs);
		process.kill(pid, signal);
	}
	return performance.now();
}
