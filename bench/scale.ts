import type {Bench, BenchSize} from './bench-result.js';
import {bareSpawns} from './host-dispatch.js';
import {oneTurnContext, oneTurnPlan} from './one-turn/context.js';
import {clearAttempts, runPlan, writeTrivialHost} from './one-turn/fixture.js';
import {alternate, median, round, spread} from './stats.js';

const sleepMs = 1000;
export const scaleSizes = {tiny: {tasks: 2, repetitions: 1}, full: {tasks: 256, repetitions: 2}} as const;

export const scale: Bench = {
	name: 'scale',
	async run(size: BenchSize) {
		const {tasks, repetitions} = scaleSizes[size];
		const context = await oneTurnContext();
		// Every task at once: the frozen concurrency is the task count.
		const plan = await oneTurnPlan(tasks, tasks);
		const exe = await writeTrivialHost(context.dir, sleepMs);
		const peaks: number[] = [];
		const samples = await alternate(repetitions, () => bareSpawns(context.dir, exe, context.endpoint.url, tasks, tasks), async () => {
			const run = await runPlan(context.dir, plan, tasks, ['--candidate-host', exe]);
			await clearAttempts(context.dir);
			if (run.peakRssMiB !== null) peaks.push(run.peakRssMiB);
			return run.wallMs;
		});
		const wall = median(samples.measured);
		const bare = median(samples.floor);
		return {
			name: 'scale',
			figure: `${tasks} concurrent host tasks that each sleep ${sleepMs / 1000} s: total wall time over the ${sleepMs / 1000} s a perfectly parallel run takes`,
			ratio: round(wall / sleepMs),
			ratio_spread: spread(samples.measured.map(value => round(value / sleepMs))),
			measured: {wall_ms: round(wall, 0), supervisor_peak_rss_mib: peaks.length === 0 ? -1 : round(Math.max(...peaks)), ratio_to_bare_spawns: round(wall / bare)},
			floor: {sleep_ms: sleepMs, bare_spawns_wall_ms: round(bare, 0)},
			floor_description: 'the one-second sleep every task does (the wall time of a perfectly parallel run); beside it, the same executable spawned by hand all at once',
			repetitions,
			notes: 'each task is the trivial shell-script host in its own supervised process group, with its workspace, grader, evidence and ledger record. The bare spawns show what starting that many processes at once costs on this machine before any supervision. Peak memory is the hlab process\'s VmHWM from /proc (-1: never read).',
			target: size === 'tiny' ? null : {description: 'within 1.3× of the same executables spawned by hand at once (ratio_to_bare_spawns)', met: wall / bare <= 1.3},
		};
	},
};
