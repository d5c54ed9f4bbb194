import {createHash} from 'node:crypto';
import {readFileSync, realpathSync} from 'node:fs';
import {chmod, mkdir, mkdtemp, readdir, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {Piscina} from 'piscina';
import {runInGroup, type GroupRun} from '../../process/index.js';
import {oneTurnAnswer} from './config.js';
import {setAside} from './set-aside.js';
import type {FloorJob} from './floor-worker.js';

const distRoot = resolve(import.meta.dirname, '../..');
const hlabBin = resolve(distRoot, '../bin/hlab.js');

/** A scratch folder for one bench; everything a bench writes lives under it and is removed after. */
export async function scratch(name: string): Promise<{dir: string; remove(): Promise<void>}> {
	const dir = await mkdtemp(join(tmpdir(), `hlab-bench-${name}-`));
	return {dir, remove: () => rm(dir, {recursive: true, force: true})};
}

/** Runs the real `hlab` command line, supervised; a non-zero status is an error with its stderr. */
export async function hlab(args: string[], options: {cwd: string; onSpawn?: (pid: number) => void; statuses?: number[]}): Promise<GroupRun> {
	const run = await runInGroup({argv: [process.execPath, hlabBin, ...args], cwd: options.cwd, deadlineMs: 600_000, stdoutLimit: 64 * 1024 * 1024, onSpawn: options.onSpawn});
	if (run.record.failure !== null || !(options.statuses ?? [0]).includes(run.record.exit_code ?? -1)) {
		throw new Error(`hlab ${args.join(' ')} ended with ${run.record.failure ?? `status ${run.record.exit_code}`}: ${run.stderr?.toString().trim().slice(-2000)}${failedTasks(run.stdout?.toString() ?? '')}`);
	}
	return run;
}

/** The reasons of the failed tasks in a `--json` report, so a failed attempt says why. */
function failedTasks(stdout: string): string {
	try {
		const report = JSON.parse(stdout) as {tasks?: Array<{task_id: string; status: string; reason: string | null; message: string | null}>};
		const failed = (report.tasks ?? []).filter(task => task.status !== 'passed');
		return failed.map(task => `\n  ${task.task_id}: ${task.reason}: ${task.message?.slice(0, 300)}`).join('');
	} catch {
		return stdout.slice(-1000);
	}
}

export interface AttemptRun {
	/** The attempt's evidence directory (removed by `clearAttempts`). */
	artifacts: string;
	wallMs: number;
	/** The supervisor's peak resident memory (VmHWM), read from /proc while it ran; null if never read. */
	peakRssMiB: number | null;
	/** The supervisor's own CPU time (user + system, all its threads) at its last reading, 10 ms or less before it exited; null if never read. */
	cpuMs: number | null;
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** A process's peak resident memory (VmHWM) and CPU, read from /proc every 10 ms while it runs; the last reading stands. */
export class ProcessSampler {
	peakRssMiB: number | null = null;
	cpuMs: number | null = null;
	#timer: NodeJS.Timeout | undefined;

	readonly onSpawn = (pid: number): void => {
		this.#timer = setInterval(() => this.#read(pid), 10);
	};

	#read(pid: number): void {
		try {
			const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
			if (match) this.peakRssMiB = Number(match[1]) / 1024;
			const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			this.cpuMs = (Number(fields[11]) + Number(fields[12])) * (1000 / ticksPerSecond);
		} catch {
			// The process has ended; the last reading stands.
		}
	}

	stop(): void {
		clearInterval(this.#timer);
	}
}

/**
 * One `hlab eval --plan` in a new evidence directory, timed from spawn to exit; every task must pass. The evidence
 * goes under `dir` (the scratch folder, on the OS temp disk) unless `evidenceRoot` names another folder.
 */
export async function runPlan(dir: string, plan: string, count: number, extra: string[] = [], evidenceRoot: string = dir): Promise<AttemptRun> {
	const artifacts = join(evidenceRoot, `attempt-${Math.random().toString(36).slice(2)}`);
	const sampler = new ProcessSampler();
	try {
		const run = await hlab(['eval', '--plan', plan, '--artifacts', artifacts, '--json', ...extra], {cwd: dir, onSpawn: sampler.onSpawn});
		const report = JSON.parse(run.stdout!.toString()) as {totals?: {passed?: number}; report?: {totals?: {passed?: number}}};
		const passed = report.totals?.passed ?? report.report?.totals?.passed;
		if (passed !== count) throw new Error(`the attempt passed ${passed} of ${count} tasks (evidence kept in ${artifacts})`);
		return {artifacts, wallMs: run.record.wall_ms, peakRssMiB: sampler.peakRssMiB, cpuMs: sampler.cpuMs};
	} finally {
		sampler.stop();
	}
}

/** Sets one attempt's evidence (and a host attempt's record folder) aside between repetitions (`set-aside.ts` says why not removed). */
export async function clearAttempts(dir: string): Promise<void> {
	for (const entry of await readdir(dir)) if (entry.startsWith('attempt-')) await setAside(dir, join(dir, entry));
}

/** The in-process floor: a bare piscina pool at `concurrency` making the same calls and writing one file per task. */
export async function piscinaFloor(dir: string, url: string, count: number, concurrency: number): Promise<number> {
	const out = join(dir, `floor-${Math.random().toString(36).slice(2)}`);
	await mkdir(out);
	const started = performance.now();
	const pool = new Piscina<FloorJob, void>({filename: join(import.meta.dirname, 'floor-worker.js'), minThreads: concurrency, maxThreads: concurrency, concurrentTasksPerWorker: 1});
	await Promise.all(Array.from({length: count}, (_, index) => pool.run({url, file: join(out, `${index}.json`)})));
	await pool.destroy();
	const ms = performance.now() - started;
	await setAside(dir, out);
	return ms;
}

/**
 * A host executable speaking host-worker protocol v1 with no engine, no node and no command but `sleep`: a POSIX
 * shell script that reads the request, waits `sleepMs`, and answers the one-turn task with its own path and digest
 * (what a truthful worker reports). The digest cannot be inside the file it digests, so it sits beside it.
 */
export async function writeTrivialHost(dir: string, sleepMs: number): Promise<string> {
	const path = join(realpathSync(dir), `trivial-host-${sleepMs}.sh`);
	const outcome = JSON.stringify({status: 'done', reason: null, message: null, steps: 1, usage: {turns: 1, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: null, cost_usd: null}, final_text: oneTurnAnswer, stopped_by: null});
	const script = `#!/bin/sh
[ "$1" = host-worker ] || { echo 'usage: host-worker' >&2; exit 2; }
IFS= read -r digest < '${path}.sha256'
# The request is one line of JSON; the task id is the first "id" after "task".
IFS= read -r request || true
id=\${request#*'"task":{"id":"'}
id=\${id%%'"'*}
${sleepMs > 0 ? `sleep ${sleepMs / 1000}` : ':'}
printf '{"version":1,"binary":{"path":"%s","digest":"%s"},"task_id":"%s","outcome":%s}\\n' '${path}' "$digest" "$id" '${outcome}'
`;
	await writeFile(path, script);
	await writeFile(`${path}.sha256`, `sha256:${createHash('sha256').update(script).digest('hex')}\n`);
	await chmod(path, 0o755);
	return path;
}
