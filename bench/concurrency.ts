import type {Bench, BenchResult, BenchSize} from './bench-result.js';
import {oneTurnContext, stubPlan} from './one-turn/context.js';
import {clearAttempts, runPlan, type AttemptRun} from './one-turn/fixture.js';
import {httpFloor} from './one-turn/stub.js';
import {median, round, spread} from './stats.js';

export const concurrencySizes = {
	tiny: {tasks: 4, concurrencies: [2, 4], repetitions: 1, threadPerTask: [2]},
	full: {tasks: 256, concurrencies: [8, 64, 256], repetitions: 1, threadPerTask: []},
} as const;

/** The figures on this machine before threads were decoupled from concurrency (a thread per task), in its own units. */
const before = 'concurrency 8: 6.0 s wall, 8.9 s CPU, 436 MB; 64: 20.5 s, 36 s, 2.0 GB; 256: 69.6 s, 129 s, 6.6 GB';

/**
 * Frozen concurrency 8, 64 and 256 over the same one-turn tasks against a plain OpenAI-compatible stub on loopback:
 * hlab's wall time, CPU and peak memory with its default pool (a thread per core), beside a floor that makes the same
 * calls asynchronously in one thread, and beside the thread-per-task layout (`--threads` = the concurrency).
 */
export const concurrency: Bench = {
	name: 'concurrency',
	async run(size: BenchSize): Promise<BenchResult> {
		const {tasks, concurrencies, repetitions, threadPerTask} = concurrencySizes[size];
		const context = await oneTurnContext();
		const measured: Record<string, number> = {};
		const floor: Record<string, number> = {};
		for (const level of concurrencies) {
			const plan = await stubPlan(tasks, level);
			const floorMs = median(await repeat(repetitions, () => httpFloor(context.dir, context.stub.url, tasks, level, true)));
			const pooled = await attempts(repetitions, () => runPlan(context.dir, plan, tasks), context.dir);
			floor[`c${level}_wall_ms`] = round(floorMs, 0);
			Object.assign(measured, figures(`c${level}`, pooled));
			measured[`c${level}_ratio_to_floor`] = round(pooled.wallMs / floorMs);
			if ((threadPerTask as readonly number[]).includes(level)) {
				Object.assign(measured, figures(`c${level}_thread_per_task`, await attempts(repetitions, () => runPlan(context.dir, plan, tasks, ['--threads', String(level)]), context.dir)));
			}
		}
		return result(size, tasks, concurrencies, measured, floor, repetitions);
	},
};

function figures(prefix: string, run: AttemptRun): Record<string, number> {
	return {[`${prefix}_wall_ms`]: round(run.wallMs, 0), [`${prefix}_cpu_ms`]: run.cpuMs ?? -1, [`${prefix}_peak_rss_mib`]: run.peakRssMiB === null ? -1 : round(run.peakRssMiB)};
}

function result(size: BenchSize, tasks: number, concurrencies: readonly number[], measured: Record<string, number>, floor: Record<string, number>, repetitions: number): BenchResult {
	const low = concurrencies[0]!;
	const high = concurrencies.at(-1)!;
	const rss = measured[`c${high}_peak_rss_mib`]! / measured[`c${low}_peak_rss_mib`]!;
	const walls = concurrencies.slice(1).map(level => measured[`c${level}_wall_ms`]! / measured[`c${low}_wall_ms`]!);
	const ratios = concurrencies.map(level => measured[`c${level}_ratio_to_floor`]!);
	return {
		name: 'concurrency',
		figure: `${tasks} one-turn tasks on a plain OpenAI-compatible stub at concurrency ${concurrencies.join(', ')}: hlab's wall time at concurrency ${high} over a one-thread asynchronous floor at the same concurrency (also its peak RSS and wall time against concurrency ${low}, in measured)`,
		ratio: measured[`c${high}_ratio_to_floor`]!,
		ratio_spread: spread(ratios),
		measured: {...measured, [`rss_c${high}_over_c${low}`]: round(rss), ...Object.fromEntries(concurrencies.slice(1).map((level, index) => [`wall_c${level}_over_c${low}`, round(walls[index]!)]))},
		floor,
		floor_description: 'the same chat request to the same stub from one thread of the bench process, at the same concurrency, with one file written per task',
		repetitions,
		notes: size === 'full'
			? `Before (the issue's figures on this machine, a thread per task): ${before}. The thread-per-task layout is not rerun in full (its two runs are in bench/README.md); --size tiny still runs it once. CPU is the hlab process's own (all threads) from /proc; the stub runs in the bench process on both sides.`
			: 'tiny: too small for the targets; the layout with a thread per task is measured at the lowest concurrency only.',
		// A tiny run cannot show how memory and time grow with concurrency.
		target: size === 'tiny' ? null : {description: `peak RSS at concurrency ${high} within 1.5× of concurrency ${low}, and wall time at every higher concurrency no worse than at ${low}`, met: rss <= 1.5 && walls.every(ratio => ratio <= 1)},
	};
}

async function repeat(times: number, run: () => Promise<number>): Promise<number[]> {
	const samples: number[] = [];
	for (let index = 0; index < times; index += 1) samples.push(await run());
	return samples;
}

/** The median attempt by wall time; each attempt's evidence is removed before the next. */
async function attempts(times: number, run: () => Promise<AttemptRun>, dir: string): Promise<AttemptRun> {
	const runs: AttemptRun[] = [];
	for (let index = 0; index < times; index += 1) {
		runs.push(await run());
		await clearAttempts(dir);
	}
	return runs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
}
