import {runInGroup, startSpawner, type Launch} from '../process/index.js';
import type {Bench, BenchSize} from './bench-result.js';
import {alternate, median, round, spread} from './stats.js';

const sizes = {tiny: {launches: 8, concurrency: 2, repetitions: 1}, full: {launches: 200, concurrency: 8, repetitions: 3}} as const;

/** The main thread's busy time while `launches` trivial commands run through `launch` at `concurrency`, per launch, and the wall time. */
async function mainThreadPerLaunch(launch: Launch, launches: number, concurrency: number): Promise<{busyMs: number; wallMs: number}> {
	const before = performance.eventLoopUtilization();
	const started = performance.now();
	let next = 0;
	await Promise.all(Array.from({length: Math.min(concurrency, launches)}, async () => {
		while (next < launches) {
			next += 1;
			const run = await launch({argv: ['/bin/true'], deadlineMs: 60_000, stdoutLimit: 4096, stderrLimit: 4096});
			if (run.record.exit_code !== 0) throw new Error(`/bin/true ended with ${run.record.failure ?? run.record.exit_code}: ${run.record.failure_message}`);
		}
	}));
	const wallMs = performance.now() - started;
	return {busyMs: performance.eventLoopUtilization(before).active / launches, wallMs};
}

/**
 * What one supervised launch costs the main thread (event-loop busy time per launch) of a process the size of a
 * supervisor (this bench runner, ~180 MiB: `fork` copies page tables in proportion), through the attempt's spawner
 * against runInGroup called here, the same launches, alternated.
 */
export const spawnCost: Bench = {
	name: 'spawn-cost',
	async run(size: BenchSize) {
		const {launches, concurrency, repetitions} = sizes[size];
		const spawner = await startSpawner();
		const walls = {spawner: [] as number[], direct: [] as number[]};
		try {
			const samples = await alternate(repetitions, async () => {
				const run = await mainThreadPerLaunch(runInGroup, launches, concurrency);
				walls.direct.push(run.wallMs);
				return run.busyMs;
			}, async () => {
				const run = await mainThreadPerLaunch(spawner.run, launches, concurrency);
				walls.spawner.push(run.wallMs);
				return run.busyMs;
			});
			const [spawnerMs, directMs] = [median(samples.measured), median(samples.floor)];
			return {
				name: 'spawn-cost',
				figure: `main-thread time per supervised launch of /bin/true (${launches} at concurrency ${concurrency}, from this process, grown as a supervisor is): through the spawner / runInGroup here`,
				ratio: round(spawnerMs / directMs, 4),
				ratio_spread: spread(samples.measured.map((value, index) => round(value / samples.floor[index]!, 4))),
				measured: {main_thread_ms_per_launch: round(spawnerMs, 2), wall_ms: round(median(walls.spawner), 0), rss_mib: round(process.memoryUsage().rss / 2 ** 20, 0)},
				floor: {main_thread_ms_per_launch: round(directMs, 2), wall_ms: round(median(walls.direct), 0)},
				floor_description: 'the same launches through runInGroup in this process (the fork, the cgroup, the watch and the cleanup on its main thread)',
				repetitions,
				notes: 'event-loop busy time (performance.eventLoopUtilization) over the launches, divided by their number; the fork blocks it until the child has exec\'d',
				target: null,
			};
		} finally {
			await spawner.close();
		}
	},
};
