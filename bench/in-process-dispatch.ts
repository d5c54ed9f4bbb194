import {existsSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {join} from 'node:path';
import type {Bench, BenchResult, BenchSize} from './bench-result.js';
import {oneTurnContext, oneTurnPlan, stubPlan} from './one-turn/context.js';
import {clearAttempts, piscinaFloor, runPlan, type AttemptRun} from './one-turn/fixture.js';
import {httpFloor} from './one-turn/stub.js';
import {alternate, median, round, spread} from './stats.js';

export const inProcessSizes = {tiny: {tasks: 2, concurrencies: [2], repetitions: 1}, full: {tasks: 500, concurrencies: [8, 64], repetitions: 2}} as const;
export const scriptedSizes = {tiny: {tasks: 2, concurrency: 2, repetitions: 1}, full: {tasks: 500, concurrency: 8, repetitions: 1}} as const;

const perTask = 'hlab per task: a fresh workspace set up from the task files, a worker-thread agent run with its journal and transcript, the independent grader, evidence export and a flushed ledger record; per attempt: process start, admission, the attempt record (digests of the build and the node binary) and the warm-up of its threads.';

/**
 * hlab's OpenAI-compatible provider against the plain stub at each concurrency, beside the raw HTTP floor: the same
 * requests at the same concurrency from one thread of the bench process, nothing written.
 */
export const inProcessDispatch: Bench = {
	name: 'in-process-dispatch',
	async run(size: BenchSize): Promise<BenchResult> {
		const {tasks, concurrencies, repetitions} = inProcessSizes[size];
		const context = await oneTurnContext();
		const measured: Record<string, number> = {};
		const floor: Record<string, number> = {};
		const allRatios: number[] = [];
		for (const concurrency of concurrencies) {
			const plan = await stubPlan(tasks, concurrency);
			const peaks: number[] = [];
			const cpus: number[] = [];
			const samples = await alternate(repetitions, () => httpFloor(context.dir, context.stub.url, tasks, concurrency, false), async () => {
				const run = await runPlan(context.dir, plan, tasks);
				await clearAttempts(context.dir);
				if (run.peakRssMiB !== null) peaks.push(run.peakRssMiB);
				if (run.cpuMs !== null) cpus.push(run.cpuMs);
				return run.wallMs;
			});
			const [hlabMs, floorMs] = [median(samples.measured), median(samples.floor)];
			measured[`c${concurrency}_wall_ms`] = round(hlabMs, 0);
			measured[`c${concurrency}_tasks_per_s`] = round(tasks / (hlabMs / 1000));
			measured[`c${concurrency}_peak_rss_mib`] = peaks.length === 0 ? -1 : round(Math.max(...peaks));
			measured[`c${concurrency}_cpu_ms`] = cpus.length === 0 ? -1 : median(cpus);
			measured[`c${concurrency}_ratio_to_floor`] = round(hlabMs / floorMs);
			floor[`c${concurrency}_wall_ms`] = round(floorMs, 0);
			allRatios.push(...samples.measured.map((value, index) => value / samples.floor[index]!));
		}
		const full = size === 'full';
		if (full) measured.wall_c64_over_c8 = round(measured.c64_wall_ms! / measured.c8_wall_ms!);
		// Only in full: a tiny run's attempt is all start-up, where the evidence disk does not show.
		const onTmpfs = full ? await tmpfsEvidence(context.dir, await stubPlan(tasks, concurrencies[0]!), tasks) : null;
		if (onTmpfs !== null) {
			measured[`c${concurrencies[0]}_evidence_on_tmpfs_wall_ms`] = round(onTmpfs.wallMs, 0);
			measured[`c${concurrencies[0]}_evidence_on_tmpfs_cpu_ms`] = onTmpfs.cpuMs ?? -1;
		}
		const headline = full ? 8 : concurrencies[0]!;
		const ratio = measured[`c${headline}_ratio_to_floor`]!;
		return {
			name: 'in-process-dispatch',
			figure: `${tasks} one-turn tasks through hlab eval --plan with the OpenAI-compatible provider on the plain stub: wall time over the raw HTTP floor at concurrency ${headline} (also ${concurrencies.join(', ')} in measured)`,
			ratio,
			ratio_spread: spread(allRatios.map(value => round(value))),
			measured,
			floor,
			floor_description: 'the same requests to the same stub at the same concurrency from one thread of the bench process, each answer read to its end',
			repetitions,
			notes: `${perTask} The floor makes the HTTP calls and nothing else. _cpu_ms is the hlab process's user + system time (all threads, from /proc). _evidence_on_tmpfs: one more attempt at the lowest concurrency with its evidence directory on the shared-memory tmpfs (/dev/shm), to show what the evidence disk costs.`,
			// A tiny run cannot show either condition.
			target: full ? {description: 'within 3× of the raw HTTP floor at concurrency 8, and concurrency 64 no slower than 8', met: ratio <= 3 && measured.wall_c64_over_c8! <= 1} : null,
		};
	},
};

/** One attempt with its evidence directory on /dev/shm (a tmpfs), or null where there is none. */
async function tmpfsEvidence(dir: string, plan: string, tasks: number): Promise<AttemptRun | null> {
	if (!existsSync('/dev/shm')) return null;
	const root = await mkdtemp(join('/dev/shm', 'hlab-bench-'));
	try {
		return await runPlan(dir, plan, tasks, [], root);
	} finally {
		await rm(root, {recursive: true, force: true});
	}
}

/** The same tasks on the scripted provider (hlab starts its own scripted server), beside a bare piscina pool calling the bench's scripted server. */
export const inProcessScripted: Bench = {
	name: 'in-process-scripted',
	async run(size: BenchSize): Promise<BenchResult> {
		const {tasks, concurrency, repetitions} = scriptedSizes[size];
		const context = await oneTurnContext();
		const plan = await oneTurnPlan(tasks, concurrency);
		const samples = await alternate(repetitions, () => piscinaFloor(context.dir, context.endpoint.url, tasks, concurrency), async () => {
			const run = await runPlan(context.dir, plan, tasks);
			await clearAttempts(context.dir);
			return run.wallMs;
		});
		const [hlabMs, floorMs] = [median(samples.measured), median(samples.floor)];
		return {
			name: 'in-process-scripted',
			figure: `${tasks} one-turn tasks through hlab eval --plan on the scripted provider at concurrency ${concurrency}: wall time`,
			ratio: round(hlabMs / floorMs),
			ratio_spread: spread(samples.measured.map((value, index) => round(value / samples.floor[index]!))),
			measured: {wall_ms: round(hlabMs, 0), tasks_per_s: round(tasks / (hlabMs / 1000))},
			floor: {wall_ms: round(floorMs, 0), tasks_per_s: round(tasks / (floorMs / 1000))},
			floor_description: 'a bare piscina pool at the same concurrency: the same chat call to the same kind of scripted server and one file written per task',
			repetitions,
			notes: `${perTask} On this line hlab also starts its own scripted server (a supervised process with a tokenizer) and the server's tokenizer work is on both sides. The floor does one HTTP call and one file write per task, against a server started before timing.`,
			target: null,
		};
	},
};
