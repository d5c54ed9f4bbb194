import {runInGroup} from '../process/index.js';
import {alternate, median, round, spread} from './stats.js';
import type {Bench, BenchSize} from './bench-result.js';

const MiB = 1024 * 1024;
const limit = 8 * MiB;

/** Flood: stdout far past the limit; the run must end at the limit. */
async function flood(bytes: number): Promise<{ms: number; peakRssMiB: number; baselineRssMiB: number}> {
	global.gc?.();
	const baseline = process.memoryUsage().rss;
	let peak = baseline;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
	const started = performance.now();
	const {record} = await runInGroup({argv: ['head', '-c', String(bytes), '/dev/zero'], stdoutLimit: limit, graceMs: 500});
	const ms = performance.now() - started;
	clearInterval(sampler);
	if (record.failure !== 'stdout_limit') throw new Error(`flood ended with ${record.failure}`);
	return {ms, peakRssMiB: peak / MiB, baselineRssMiB: baseline / MiB};
}

/** Floor: exactly the limit's worth of bytes, read to the end with no overflow. */
async function atLimit(): Promise<number> {
	const started = performance.now();
	const {record} = await runInGroup({argv: ['head', '-c', String(limit), '/dev/zero'], stdoutLimit: limit});
	if (record.failure !== null) throw new Error(`floor run failed: ${record.failure}`);
	return performance.now() - started;
}

export const outputLimit: Bench = {
	name: 'output-limit',
	async run(size: BenchSize) {
		const bytes = size === 'tiny' ? 64 * MiB : 1024 * MiB;
		const repetitions = size === 'tiny' ? 1 : 5;
		const memory: number[] = [];
		const samples = await alternate(repetitions, atLimit, async () => {
			const run = await flood(bytes);
			memory.push(run.peakRssMiB - run.baselineRssMiB);
			return run.ms;
		});
		const ratios = samples.measured.map((value, index) => value / samples.floor[index]!);
		const growth = Math.max(...memory);
		return {
			name: 'output-limit',
			figure: `${bytes / MiB} MiB stdout flood against an 8 MiB limit: time to group gone`,
			ratio: round(median(samples.measured) / median(samples.floor)),
			ratio_spread: spread(ratios.map(value => round(value))),
			measured: {flood_ms: round(median(samples.measured)), time_after_limit_ms: round(median(samples.measured) - median(samples.floor)), peak_memory_growth_mib: round(growth)},
			floor: {exactly_8mib_ms: round(median(samples.floor))},
			floor_description: 'the same command producing exactly 8 MiB, read to its end under the same limit',
			repetitions,
			notes: 'memory is the supervisor process RSS high-water mark above its level before the flood (the 8 MiB kept buffer included)',
			target: {description: 'supervisor memory under 64 MiB above its baseline', met: growth < 64},
		};
	},
};
