import type {Bench, BenchSize} from './bench-result.js';
import {oneTurnContext, oneTurnPlan} from './one-turn/context.js';
import {clearAttempts, runPlan, writeTrivialHost} from './one-turn/fixture.js';
import {median, round, spread} from './stats.js';

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
		const walls: number[] = [];
		const peaks: number[] = [];
		for (let round = 0; round < repetitions; round += 1) {
			const run = await runPlan(context.dir, plan, tasks, ['--candidate-host', exe]);
			await clearAttempts(context.dir);
			walls.push(run.wallMs);
			if (run.peakRssMiB !== null) peaks.push(run.peakRssMiB);
		}
		const wall = median(walls);
		return {
			name: 'scale',
			figure: `${tasks} concurrent host tasks that each sleep ${sleepMs / 1000} s: total wall time`,
			ratio: round(wall / sleepMs),
			ratio_spread: spread(walls.map(value => round(value / sleepMs))),
			measured: {wall_ms: round(wall, 0), supervisor_peak_rss_mib: peaks.length === 0 ? -1 : round(Math.max(...peaks))},
			floor: {sleep_ms: sleepMs},
			floor_description: 'the one-second sleep every task does: the wall time of a perfectly parallel run',
			repetitions,
			notes: `each task is a trivial shell-script host in its own supervised process group, with its workspace, grader, evidence and ledger record. Peak memory is the hlab process's VmHWM from /proc (-1: never read).`,
			target: null,
		};
	},
};
